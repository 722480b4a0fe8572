"""An I2C bus in userspace for the display tests: `/dev/i2c-N` served by FUSE.

The kernel hands the tower's real `ioctl` calls (I2C_FUNCS, I2C_SLAVE, I2C_SMBUS, I2C_RDWR) on a
FUSE file to this package's server unchanged; `i2cdev` answers them the way the kernel's i2c-dev
driver does, and `oled` decodes what reaches each address as an SSD1306 or SH1106 would.
`harness` mounts one for a test; `fs` is the server it runs.
"""
