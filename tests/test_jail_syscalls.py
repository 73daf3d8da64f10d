"""The robot filter's system call numbers against the kernel's own headers
(tests/data/syscall_numbers.txt, written by tools/syscall_numbers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.logic.workers.jail_linux import SECCOMP_MACHINES, seccomp_program

DATA = Path(__file__).parent / "data" / "syscall_numbers.txt"
MACHINES = ("x86_64", "aarch64")


def _headers() -> dict[str, dict[str, int]]:
    tables: dict[str, dict[str, int]] = {machine: {} for machine in MACHINES}
    for line in DATA.read_text().splitlines():
        if line.startswith("#"):
            continue
        name, *numbers = line.split()
        for machine, number in zip(MACHINES, numbers, strict=True):
            tables[machine][name] = int(number)
    return tables


@pytest.mark.parametrize("machine", MACHINES)
def test_the_filter_names_the_kernels_numbers(machine: str) -> None:
    """Every machine's table names the same calls, each by the number its kernel gives it."""
    _, numbers = SECCOMP_MACHINES[machine]
    assert numbers == _headers()[machine]


@pytest.mark.parametrize("machine", MACHINES)
def test_the_program_tests_every_named_call(machine: str) -> None:
    """The program compares the call number with each named call (and its own architecture)."""
    arch, numbers = SECCOMP_MACHINES[machine]
    compared = {k for code, _, _, k in seccomp_program(machine) if code == 0x15}  # BPF_JEQ_K
    assert set(numbers.values()) | {arch} <= compared
