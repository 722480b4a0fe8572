// An emulated Raspberry Pi Pico (rp2040js) running MicroPython's rp2 port and the pad firmware.
//
//   node tools/pico_emulator/run_pico.mjs ROM ROM_EXT FLASH
//
// ROM and ROM_EXT from build_bootrom.py (our own boot ROM), FLASH from make_flash_image.py.
// The USB serial (CDC) is this process's standard input and output, byte for byte: the pad's
// cable. Bytes for the Pico wait here while its USB receive buffer is full, as a USB host
// waits on a device that answers NAK (rp2040js's buffer drops what does not fit).
// Buttons on GPIO 10-15 are pulled up (not pressed). Lines on file descriptor PICO_BUTTONS_FD
// (default 3), if open, press them: "down PIN" / "up PIN" at once, or "tap PIN HELD GAP":
// down, HELD ms of the Pico's own (emulated) time later up, then GAP ms before the next line,
// so a press lasts as long for the firmware however slowly the emulator runs.
// On standard error: "usb up" when the host has configured the device, "oled PAGE HEX" for
// each page drawn on the SSD1306 at 0x3C on I2C0 (PICO_OLED=none: no display answers) and
// "oled shown" once FRAME_QUIET_MS of the Pico's time pass with no page drawn (the firmware
// draws a screen's changed lines one after another, about 1 ms apart: a screen drawn whole),
// "led 1" / "led 0" for the LED on GPIO 25, "said HEX" for what the Pico wrote on its USB,
// and "clock MS BYTES" (the Pico's time since reset, the bytes handed to its USB so far) once
// a second of the host's time.
// A maintainer's tool (README.md), driven by tools/pico_emulator/emulated_pico.py.
import { createReadStream, fstatSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ConsoleLogger, LogLevel, Simulator, USBCDC } from 'rp2040js';

const [romPath, extPath, flashPath] = process.argv.slice(2);
const EXT_OFFSET = 0xf00000;
const OLED = process.env.PICO_OLED === 'none' ? -1 : 0x3c; // 'none': no display wired

const simulator = new Simulator();
const mcu = simulator.rp2040;
mcu.logger = new ConsoleLogger(LogLevel.Error);
const rom = readFileSync(romPath);
mcu.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4));
mcu.flash.set(readFileSync(flashPath), 0);
mcu.flash.set(readFileSync(extPath), EXT_OFFSET);
mcu.core.reset();

// The flash's unique ID (command 0x4B, READ UNIQUE ID: 4 dummy bytes, then 8 bytes of ID),
// which rp2040js's SSI answers with zeros: machine.unique_id() and so the pad's ident read it.
// PICO_UNIQUE_ID (16 hex digits) sets it; each byte the SSI is given is answered by one read.
const uniqueId = Buffer.from(process.env.PICO_UNIQUE_ID ?? 'e6614c3185a61f2b', 'hex');
const SSI_DR0 = 0x60;
const ssi = mcu.peripherals[0x18000];
const ssiRead = ssi.readUint32.bind(ssi);
const ssiWrite = ssi.writeUint32.bind(ssi);
const READ_UNIQUE_ID = 0x4b;
let uidReads = -1; // reads since the 0x4B command, or -1 outside one
ssi.writeUint32 = (offset, value) => {
  if (offset === SSI_DR0 && uidReads < 0 && (value & 0xff) === READ_UNIQUE_ID) uidReads = 0;
  ssiWrite(offset, value);
};
ssi.readUint32 = (offset) => {
  if (offset !== SSI_DR0 || uidReads < 0) return ssiRead(offset);
  const index = uidReads++ - 5; // the command byte and 4 dummy bytes come first
  if (uidReads >= 5 + uniqueId.length) uidReads = -1;
  return index >= 0 ? uniqueId[index] : 0;
};

for (let pin = 10; pin <= 15; pin++) {
  mcu.gpio[pin].setInputValue(true); // the buttons' pull-ups: high while not pressed
}

const LED_PIN = 25;
mcu.gpio[LED_PIN].addListener((value) => {
  if (value <= 1) process.stderr.write(`led ${value}\n`); // 0 Low, 1 High: driven as output
});

const presses = []; // [pin, held ms, gap ms] waiting their turn
let pressing = false;
const pressAlarm = simulator.clock.createAlarm(() => nextPressStep());
let pressStep = null; // what the alarm does next: 'up' or 'gap'

function nextPressStep() {
  if (pressStep === 'up') {
    const [pin, , gap] = presses[0];
    mcu.gpio[pin].setInputValue(true);
    pressStep = 'gap';
    pressAlarm.schedule(gap * 1e6);
    return;
  }
  if (pressStep === 'gap') presses.shift();
  pressStep = null;
  pressing = false;
  startPress();
}

function startPress() {
  if (pressing || !presses.length) return;
  const [pin, held] = presses[0];
  pressing = true;
  mcu.gpio[pin].setInputValue(false); // pressed: pulled to ground
  pressStep = 'up';
  pressAlarm.schedule(held * 1e6);
}

function buttonLine(line) {
  const [verb, pinText, held, gap] = line.trim().split(/\s+/);
  const pin = Number(pinText);
  if (!(pin >= 0 && pin < 30)) return;
  if (verb === 'down' || verb === 'up') {
    mcu.gpio[pin].setInputValue(verb === 'up');
  } else if (verb === 'tap' && Number(held) > 0) {
    presses.push([pin, Number(held), Number(gap) || 0]);
    startPress();
  }
}

const buttonsFd = Number(process.env.PICO_BUTTONS_FD ?? 3);
try {
  fstatSync(buttonsFd);
  const stream = createReadStream(null, { fd: buttonsFd });
  stream.on('error', () => {}); // not readable: the buttons stay up
  createInterface({ input: stream }).on('line', buttonLine);
} catch {
  // no button channel: the buttons stay up
}

const oled = { page: 0, expectPage: false, control: null, data: [], first: true };
const FRAME_QUIET_MS = 5; // the firmware's main loop runs every 10 ms: one screen at most
const frameAlarm = simulator.clock.createAlarm(() => process.stderr.write('oled shown\n'));
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
    frameAlarm.schedule(FRAME_QUIET_MS * 1e6); // (again: a later page puts it off)
  }
  oled.data = [];
  i2c.completeStop();
};

const cdc = new USBCDC(mcu.usbCtrl);
const toPico = []; // chunks from the host not yet in the Pico's receive buffer
let connected = false;
let fed = 0; // bytes handed to the Pico's USB receive buffer so far
const WAITING_MAX = 64 * 1024; // more than this waiting: stop reading the host (it blocks)

function feedPico() {
  if (!connected) return;
  while (toPico.length && !cdc.txFIFO.full) {
    const chunk = toPico[0];
    let used = 0;
    while (used < chunk.length && !cdc.txFIFO.full) cdc.sendSerialByte(chunk[used++]);
    fed += used;
    if (used === chunk.length) toPico.shift();
    else toPico[0] = chunk.subarray(used);
  }
  if (waitingBytes() < WAITING_MAX && process.stdin.isPaused()) process.stdin.resume();
}

function waitingBytes() {
  return toPico.reduce((sum, chunk) => sum + chunk.length, 0);
}

const readEndpoint = mcu.usbCtrl.onEndpointRead;
mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
  feedPico(); // top the buffer up before the Pico takes from it
  readEndpoint(endpoint, size);
};
cdc.onDeviceConnected = () => {
  connected = true;
  process.stderr.write('usb up\n');
  feedPico();
};
cdc.onSerialData = (data) => {
  process.stdout.write(Buffer.from(data));
  process.stderr.write(`said ${Buffer.from(data).toString('hex')}\n`); // for a failing test to show
};
process.stdin.on('data', (data) => {
  toPico.push(data);
  feedPico();
  if (waitingBytes() >= WAITING_MAX) process.stdin.pause();
});
process.stdin.on('end', () => {
  simulator.stop();
  process.exit(0);
});
setInterval(() => {
  feedPico();
  process.stderr.write(`clock ${Math.round(simulator.clock.nanos / 1e6)} ${fed}\n`);
}, 1000);

simulator.execute();
