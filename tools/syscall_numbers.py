"""The system call numbers the robot filter names, read from the Linux kernel's own headers,
for the test that the filter's table (game/logic/workers/jail_linux.py) names the calls it
means on every machine it knows (tests/test_jail_syscalls.py).

    .venv/bin/python tools/syscall_numbers.py > tests/data/syscall_numbers.txt

x86_64 reads ``asm/unistd_64.h``; aarch64 uses the kernel's generic table,
``asm-generic/unistd.h`` (both from the linux-libc-dev package). Each line: the call's name,
then its number on x86_64 and on aarch64.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HEADERS = {
    "x86_64": Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h"),
    "aarch64": Path("/usr/include/asm-generic/unistd.h"),
}
_DEFINE = re.compile(r"^#define __NR_(\w+)\s+(\d+)\s*$", re.MULTILINE)


def numbers(header: Path) -> dict[str, int]:
    """Every ``__NR_name number`` definition of ``header``."""
    return {name: int(n) for name, n in _DEFINE.findall(header.read_text())}


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from game.logic.workers.jail_linux import SECCOMP_MACHINES

    tables = {machine: numbers(path) for machine, path in HEADERS.items()}
    names = SECCOMP_MACHINES["x86_64"][1]
    print("# The robot filter's system calls in the kernel headers (tools/syscall_numbers.py):")
    print("# name x86_64 aarch64")
    for name in names:
        print(name, *(tables[machine][name] for machine in HEADERS))


if __name__ == "__main__":
    main()
