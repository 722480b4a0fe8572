/* Our boot ROM's fixed layout (rom.c has the code): the vectors, the header at 0x10 that
   pico-sdk reads (magic, version, 16-bit pointers to the function table, the data table and
   the lookup function), and the tables: pairs of a two-letter code and a 16-bit pointer,
   ending in code 0. Function pointers carry the Thumb bit. */
    .syntax unified
    .section .vectors, "a"
    .word 0x20042000            /* initial stack: the top of SRAM */
    .word reset                 /* the linker sets the Thumb bit on a function's word */
    .word 0, 0
    .section .rom_header, "a"
    .byte 'M', 'u', 1, 2        /* 0x10: magic, then the ROM version (2: B1) */
    .hword function_table       /* 0x14 */
    .hword data_table           /* 0x16 */
    .hword table_lookup + 1     /* 0x18 */

    .macro entry a, b, function
    .hword \a | (\b << 8)
    .hword \function + 1
    .endm

    .section .rom.tables, "a"
    .balign 4
function_table:
    entry 'M', 'C', rom_memcpy
    entry 'C', '4', rom_memcpy
    entry 'M', 'S', rom_memset
    entry 'S', '4', rom_memset
    entry 'P', '3', rom_popcount
    entry 'R', '3', rom_reverse
    entry 'L', '3', rom_clz
    entry 'T', '3', rom_ctz
    entry 'I', 'F', rom_nothing
    entry 'E', 'X', rom_nothing
    entry 'F', 'C', rom_nothing
    entry 'C', 'X', rom_nothing
    entry 'R', 'E', rom_flash_erase
    entry 'R', 'P', rom_flash_program
    entry 'U', 'B', rom_stop
    .hword 0, 0
data_table:
    .hword 'S' | ('F' << 8), sf_table
    .hword 'S' | ('D' << 8), sd_table
    .hword 0, 0

/* The soft float and double tables (offsets: pico-sdk's pico/bootrom/sf_table.h), each with
   its size in words in the byte two before it, as the real ROM's. Their functions are
   in the ROM extension (softfloat.c). Entry 18, sincos, is version 3's: pico-sdk brings its
   own for this version 2 ROM. */
    .balign 4
    .hword 0
    .hword 32
sf_table:
    .word f_add, f_sub, f_mul, f_div
    .word f_cmp, f_cmp_flags, f_sqrt, f_to_int
    .word f_to_fix, f_to_uint, f_to_ufix, f_from_int
    .word f_from_fix, f_from_uint, f_from_ufix, f_cos
    .word f_sin, f_tan, missing, f_exp
    .word f_ln, f_cmp, f_atan2, f_from_int64
    .word f_from_fix64, f_from_uint64, f_from_ufix64, f_to_int64
    .word f_to_fix64, f_to_uint64, f_to_ufix64, f_to_double
    .hword 0
    .hword 32
sd_table:
    .word d_add, d_sub, d_mul, d_div
    .word d_cmp, d_cmp_flags, d_sqrt, d_to_int
    .word d_to_fix, d_to_uint, d_to_ufix, d_from_int
    .word d_from_fix, d_from_uint, d_from_ufix, d_cos
    .word d_sin, d_tan, missing, d_exp
    .word d_ln, d_cmp, d_atan2, d_from_int64
    .word d_from_fix64, d_from_uint64, d_from_ufix64, d_to_int64
    .word d_to_fix64, d_to_uint64, d_to_ufix64, d_to_float
