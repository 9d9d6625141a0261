/* The data cache sizes one core sees (fcbench's engine: measure.c sizes its
 * warm-up by them, machine.c reports them, the scenarios size buffers by them). */
#include "bench.h"

#include <string.h>
#include <unistd.h>

/* sysfs first: it describes the cache one core sees (glibc's sysconf may
 * report a whole-socket L3 under virtualisation). */
static long sysfs_cache(int level)
{
    for (int i = 0; i < 8; i++) {
        char path[96], buf[32];
        long lv = 0, size = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(path, "r");
        if (!f) return 0;
        if (fscanf(f, "%ld", &lv) != 1) lv = 0;
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if (!(f = fopen(path, "r"))) continue;
        int data = fgets(buf, sizeof buf, f) && strncmp(buf, "Instruction", 11) != 0;
        fclose(f);
        if (lv != level || !data) continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (!(f = fopen(path, "r"))) continue;
        char unit = 0;
        if (fscanf(f, "%ld%c", &size, &unit) >= 1) size *= unit == 'K' ? 1024 : unit == 'M' ? 1048576 : 1;
        fclose(f);
        return size;
    }
    return 0;
}

long machine_cache_bytes(int level)
{
    static long memo[4] = {-1, -1, -1, -1};
    if (level < 1 || level > 3) return 0;
    if (memo[level] >= 0) return memo[level];
    long v = sysfs_cache(level);
    if (v <= 0) {
        static const int names[] = {0, _SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL3_CACHE_SIZE};
        v = sysconf(names[level]);
    }
    return memo[level] = v > 0 ? v : 0;
}
