/* User-space stand-in for the kernel's <asm/asm.h> on rv64 (see linux/linkage.h). */
#define CONFIG_64BIT 1
#define REG_L ld
#define REG_S sd
#define SZREG 8
