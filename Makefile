# The README's two commands.  CMake is the real build; see README.md.
.PHONY: bench test kernel-bench clean

bench:  ## main job: build, registry self-check, fcbench all, report, targets
	scripts/run-main.sh

test:   ## every suite: native gcc/clang, ASan+UBSan, riscv64, aarch64, s390x under qemu, the riscv64 kernel
	scripts/run-tests.sh

kernel-bench:  ## the seeds' tables inside the riscv64 kernel, as QEMU instruction counts (docs/kernel.md)
	scripts/setup-deps.sh kernel-bench && kernel/test/run.sh --bench build/kernel

clean:
	rm -rf build
