# The README's two commands.  CMake is the real build; see README.md.
.PHONY: bench test clean

bench:  ## main job: build, registry self-check, fcbench all, report, targets
	tools/run-main.sh

test:   ## every suite: native gcc/clang, ASan+UBSan, riscv64, aarch64, s390x under qemu
	tools/run-tests.sh

clean:
	rm -rf build
