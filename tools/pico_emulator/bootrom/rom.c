/* A boot ROM of our own for an emulated RP2040 (rp2040js), written from the RP2040 datasheet's
 * description of the ROM (section 2.8) and pico-sdk's use of it: the header and lookup tables,
 * memory and bit helpers, flash erase and program on the emulated flash, and the soft float
 * and double tables (sf_table.h gives their offsets). Not the Raspberry Pi ROM: it skips boot2
 * (rp2040js maps the flash directly) and starts the image's vector table at 0x10000100. The
 * vectors, header and lookup tables are in rom_tables.S (16-bit pointers need the assembler). */
#include <stdint.h>

#define ROM __attribute__((section(".rom"), used))
#define FLASH_BASE 0x10000000u

ROM void *table_lookup(const uint16_t *table, uint32_t code) {
    for (; table[0]; table += 2) {
        if (table[0] == code) {
            return (void *)(uintptr_t)table[1];
        }
    }
    return 0;
}

ROM __attribute__((naked, noreturn)) void reset(void) {
    __asm__ volatile(
        "ldr r0, =0x10000100\n"
        "ldr r1, =0xE000ED08\n"
        "str r0, [r1]\n"           /* VTOR: the image's vector table */
        "ldr r1, [r0, #0]\n"
        "mov sp, r1\n"
        "ldr r1, [r0, #4]\n"
        "bx r1\n"
        ".ltorg\n");
}

ROM void *rom_memcpy(void *dest, const void *src, uint32_t n) {
    uint8_t *d = dest;
    const uint8_t *s = src;
    while (n--) *d++ = *s++;
    return dest;
}

ROM void *rom_memset(void *dest, uint8_t c, uint32_t n) {
    uint8_t *d = dest;
    while (n--) *d++ = c;
    return dest;
}

ROM uint32_t rom_popcount(uint32_t v) {
    uint32_t n = 0;
    for (; v; v >>= 1) n += v & 1;
    return n;
}

ROM uint32_t rom_reverse(uint32_t v) {
    uint32_t r = 0;
    for (int i = 0; i < 32; i++, v >>= 1) r = (r << 1) | (v & 1);
    return r;
}

ROM uint32_t rom_clz(uint32_t v) {
    uint32_t n = 0;
    if (!v) return 32;
    while (!(v & 0x80000000u)) { v <<= 1; n++; }
    return n;
}

ROM uint32_t rom_ctz(uint32_t v) {
    uint32_t n = 0;
    if (!v) return 32;
    while (!(v & 1)) { v >>= 1; n++; }
    return n;
}

ROM void rom_nothing(void) {}

/* The flash model: rp2040js keeps the flash as memory at 0x10000000; erasing sets 0xFF,
   programming clears bits (NOR flash), as the real chip does. */
ROM void rom_flash_erase(uint32_t offset, uint32_t count, uint32_t block, uint8_t cmd) {
    volatile uint32_t *p = (volatile uint32_t *)(FLASH_BASE + offset);
    for (uint32_t i = 0; i < count / 4; i++) p[i] = 0xFFFFFFFFu;
}

ROM void rom_flash_program(uint32_t offset, const uint8_t *data, uint32_t count) {
    volatile uint8_t *p = (volatile uint8_t *)(FLASH_BASE + offset);
    for (uint32_t i = 0; i < count; i++) p[i] &= data[i];
}

ROM __attribute__((noreturn)) void rom_stop(void) {
    for (;;) __asm__ volatile("wfi");
}
