"""Report section "Kernel uaccess" (scenarios uaccess-read, uaccess-write): the running kernel's copy_to_user and
copy_from_user per user-buffer offset, as section_offsets renders its scenarios."""

from .section_offsets import offset_section


def render(ctx):
    offset_section(ctx, "Kernel uaccess", "uaccess", ("uaccess-read", "uaccess-write"),
                   "The running kernel's copy_to_user (pread into a user buffer at the offset) and "
                   "copy_from_user (pwrite from it), on a memfd and on a tmpfs file; user offsets 0..63, "
                   "size 8/16/32 KiB minus the offset; one syscall per call (its fixed cost included).",
                   "uaccess", False)
