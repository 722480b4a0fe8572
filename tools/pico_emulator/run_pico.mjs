// An emulated Raspberry Pi Pico (rp2040js) running MicroPython's rp2 port and the pad firmware.
//
//   node tools/pico_emulator/run_pico.mjs ROM ROM_EXT FLASH
//
// ROM and ROM_EXT from build_bootrom.py (our own boot ROM), FLASH from make_flash_image.py.
// The USB serial (CDC) is this process's standard input and output, byte for byte: the pad's
// cable. Buttons on GPIO 10-15 are pulled up (not pressed); lines "down PIN" / "up PIN" on
// file descriptor PICO_BUTTONS_FD (default 3), if open, press and release them. An SSD1306 answers at 0x3C on I2C0 and
// each page drawn is reported on standard error as "oled PAGE HEX". A maintainer's tool
// (README.md), driven by tools/pico_emulator/emulated_pico.py.
import { createReadStream, fstatSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ConsoleLogger, LogLevel, Simulator, USBCDC } from 'rp2040js';

const [romPath, extPath, flashPath] = process.argv.slice(2);
const EXT_OFFSET = 0xf00000;
const OLED = 0x3c;

const simulator = new Simulator();
const mcu = simulator.rp2040;
mcu.logger = new ConsoleLogger(LogLevel.Error);
const rom = readFileSync(romPath);
mcu.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4));
mcu.flash.set(readFileSync(flashPath), 0);
mcu.flash.set(readFileSync(extPath), EXT_OFFSET);
mcu.core.reset();

for (let pin = 10; pin <= 15; pin++) {
  mcu.gpio[pin].setInputValue(true); // the buttons' pull-ups: high while not pressed
}

let buttons = null;
const buttonsFd = Number(process.env.PICO_BUTTONS_FD ?? 3);
try {
  fstatSync(buttonsFd);
  buttons = createInterface({ input: createReadStream(null, { fd: buttonsFd }) });
} catch {
  // no button channel: the buttons stay up
}
buttons?.on('line', (line) => {
  const [verb, pin] = line.trim().split(/\s+/);
  if ((verb === 'down' || verb === 'up') && Number(pin) >= 0 && Number(pin) < 30) {
    mcu.gpio[Number(pin)].setInputValue(verb === 'up'); // pressed: pulled to ground
  }
});

const oled = { page: 0, expectPage: false, control: null, data: [], first: true };
const i2c = mcu.i2c[0];
i2c.onStart = () => i2c.completeStart();
i2c.onConnect = (address) => {
  oled.first = true;
  i2c.completeConnect(address === OLED);
};
i2c.onWriteByte = (value) => {
  if (oled.first) {
    oled.control = value; // 0x80: a command byte follows; 0x40: display data follows
    oled.first = false;
  } else if (oled.control === 0x40) {
    oled.data.push(value);
  } else if (oled.expectPage) {
    oled.page = value;
    oled.expectPage = false;
  } else if (value === 0x22) {
    oled.expectPage = true;
  }
  i2c.completeWrite(true);
};
i2c.onReadByte = () => i2c.completeRead(0xff);
i2c.onStop = () => {
  if (oled.control === 0x40 && oled.data.length) {
    process.stderr.write(`oled ${oled.page} ${Buffer.from(oled.data).toString('hex')}\n`);
  }
  oled.data = [];
  i2c.completeStop();
};

const cdc = new USBCDC(mcu.usbCtrl);
const pending = [];
let connected = false;
cdc.onDeviceConnected = () => {
  connected = true;
  process.stderr.write('usb up\n');
  for (const byte of pending.splice(0)) cdc.sendSerialByte(byte);
};
cdc.onSerialData = (data) => process.stdout.write(Buffer.from(data));
process.stdin.on('data', (data) => {
  for (const byte of data) {
    if (connected) cdc.sendSerialByte(byte);
    else pending.push(byte);
  }
});
process.stdin.on('end', () => {
  simulator.stop();
  process.exit(0);
});

simulator.execute();
