"""The Linux calls behind the robot jail (:mod:`game.logic.workers.jail`), through ctypes on the C
library: namespaces, mounts, a user of its own, capabilities, resource limits, Landlock and a
seccomp filter. Each function does one layer and raises :class:`OSError` (with the errno) when
the kernel refuses it; none of them decides what to do about a refusal.

Only for Linux; importing this module elsewhere works, calling it does not.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import signal
import stat
import struct
from collections.abc import Sequence
from typing import Final

# --- Constants from the kernel's headers (Landlock's and seccomp's stand in their sections) --

CLONE_NEWNS: Final = 0x00020000
CLONE_NEWCGROUP: Final = 0x02000000
CLONE_NEWUTS: Final = 0x04000000
CLONE_NEWIPC: Final = 0x08000000
CLONE_NEWUSER: Final = 0x10000000
CLONE_NEWPID: Final = 0x20000000
CLONE_NEWNET: Final = 0x40000000
#: Every namespace flag clone() takes in its first argument (CLONE_NEWTIME shares its bit with
#: the exit signal there, so only unshare and clone3 take it; both are refused anyway).
_CLONE_NAMESPACES: Final = (
    CLONE_NEWNS
    | CLONE_NEWCGROUP
    | CLONE_NEWUTS
    | CLONE_NEWIPC
    | CLONE_NEWUSER
    | CLONE_NEWPID
    | CLONE_NEWNET
)

MS_RDONLY: Final = 1
MS_NOSUID: Final = 2
MS_NODEV: Final = 4
MS_NOEXEC: Final = 8
MS_REMOUNT: Final = 32
MS_BIND: Final = 4096
MS_REC: Final = 0x4000
MS_PRIVATE: Final = 1 << 18

PR_SET_PDEATHSIG: Final = 1
PR_SET_DUMPABLE: Final = 4
PR_SET_KEEPCAPS: Final = 8
PR_SET_NAME: Final = 15
PR_SET_SECCOMP: Final = 22
PR_SET_CHILD_SUBREAPER: Final = 36
PR_SET_NO_NEW_PRIVS: Final = 38
SECCOMP_MODE_FILTER: Final = 2

CAP_DAC_READ_SEARCH: Final = 2
_CAPABILITY_VERSION_3: Final = 0x20080522

_LIBC: ctypes.CDLL | None = None


def libc() -> ctypes.CDLL:
    """The C library (the symbols this process already has; errno kept for :func:`_fail`)."""
    global _LIBC
    if _LIBC is None:
        _LIBC = ctypes.CDLL(None, use_errno=True)
    return _LIBC


def errno_words(error: OSError) -> str:
    """``ENOSYS: Function not implemented`` for an OSError (its number's name and words)."""
    number = error.errno
    if number is None:
        return str(error)
    return f"{errno.errorcode.get(number, str(number))}: {os.strerror(number)}"


# --- Processes and namespaces ----------------------------------------------------------------


def prctl(option: int, *values: int) -> None:
    """``prctl(option, values...)`` (missing values are 0); raises OSError."""
    call = libc().prctl
    call.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4
    if call(option, *values, *[0] * (4 - len(values))) != 0:
        _fail("prctl")


def unshare(flags: int) -> None:
    """Move this process into new namespaces (``CLONE_NEW*`` flags); raises OSError."""
    if libc().unshare(ctypes.c_int(flags)) != 0:
        _fail("unshare")


def map_own_ids(uid: int, gid: int) -> None:
    """In a user namespace just made: map ``uid`` and ``gid`` (the caller's own, outside) to the
    same numbers inside, after refusing setgroups as the kernel asks of an unprivileged map."""
    for name, text in (
        ("setgroups", "deny"),
        ("uid_map", f"{uid} {uid} 1"),
        ("gid_map", f"{gid} {gid} 1"),
    ):
        with open(f"/proc/self/{name}", "w") as f:
            f.write(text)  # fmt: skip


def mount(source: str | None, target: str, kind: str | None, flags: int, data: str = "") -> None:
    """``mount(2)``; raises OSError."""
    call = libc().mount
    call.argtypes = [
        ctypes.c_char_p,
        ctypes.c_char_p,
        ctypes.c_char_p,
        ctypes.c_ulong,
        ctypes.c_char_p,
    ]

    def text(value: str | None) -> bytes | None:
        return None if value is None else os.fsencode(value)

    if call(text(source), text(target), text(kind), flags, text(data) if data else None) != 0:
        _fail("mount")


def private_mounts() -> None:
    """Make every mount of this (new) mount namespace private, so what is mounted here is
    never seen outside."""
    mount(None, "/", None, MS_REC | MS_PRIVATE)


def mount_temp(folder: str, uid: int, gid: int, size_mb: int, inodes: int) -> None:
    """A tmpfs of ``size_mb`` MiB and ``inodes`` files on ``folder``, owned by ``uid``:``gid``."""
    options = f"size={size_mb}m,nr_inodes={inodes},mode=0700,uid={uid},gid={gid}"
    mount("tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV, options)


def bind(fd: int, target: str, read_only: bool) -> None:
    """Mount what the open file ``fd`` (an ``O_PATH`` one will do) names, with what is mounted
    beneath it, on ``target``; ``read_only`` makes the new mount read-only (keeping the
    source's noexec). Raises OSError."""
    mount(f"/proc/self/fd/{fd}", target, None, MS_BIND | MS_REC)
    if read_only:
        kept = os.statvfs(target).f_flag & MS_NOEXEC  # ST_NOEXEC has MS_NOEXEC's value
        mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | kept)


def mount_proc() -> None:
    """A fresh /proc for this process's PID namespace (hiding every process outside it)."""
    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)


def host_parent(pid: int) -> int:
    """The parent of process ``pid`` as /proc says (0 when it cannot be read)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
        return int(stat[stat.rindex(b")") + 2 :].split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def forget_environment(keep: dict[str, str]) -> None:
    """Replace this process's environment with ``keep``: the old values are wiped from
    ``os.environ``'s storage and from the block /proc/self/environ shows, not only unset."""
    data = getattr(os.environ, "_data", None)
    old = [item for pair in data.items() for item in pair] if isinstance(data, dict) else []
    os.environ.clear()
    for item in old:
        if type(item) is bytes and len(item) > 1:  # bytes of length 0 and 1 are shared
            ctypes.memset(id(item) + bytes.__basicsize__ - 1, 0, len(item))
    del old
    try:
        with open("/proc/self/stat", "rb") as f:
            stat = f.read()
        fields = stat[stat.rindex(b")") + 2 :].split()
        start, end = int(fields[47]), int(fields[48])  # env_start, env_end (fields 50, 51)
        if 0 < start < end:
            ctypes.memset(start, 0, end - start)
    except (OSError, ValueError, IndexError):
        pass  # no /proc: the block stays as it was
    os.environ.update(keep)


# --- Users and capabilities ------------------------------------------------------------------


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def set_capabilities(keep: int) -> None:
    """Keep only the capabilities in the bit mask ``keep`` (effective and permitted; none
    inheritable); raises OSError."""
    header = _CapHeader(_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    data[0].effective = data[0].permitted = keep & 0xFFFFFFFF
    data[1].effective = data[1].permitted = keep >> 32
    if libc().capset(ctypes.byref(header), data) != 0:
        _fail("capset")


def become_user(uid: int, gid: int, keep: int) -> None:
    """Leave root for ``uid``:``gid`` with no supplementary groups, keeping only the
    capabilities in ``keep``; raises OSError. The process stays dumpable (the change of user
    would clear that), so its own /proc entries (``/proc/self/fd``, ``environ``) are its
    user's, not root's."""
    prctl(PR_SET_KEEPCAPS, 1)
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    prctl(PR_SET_KEEPCAPS, 0)
    set_capabilities(keep)
    prctl(PR_SET_DUMPABLE, 1)


def set_limits(limits: Sequence[tuple[str, int]]) -> list[str]:
    """Set each ``(name, value)`` (a ``resource.RLIMIT_*`` name) as both soft and hard limit,
    never above a hard limit already there; the names of those refused, with the reason."""
    import resource  # not on Windows, where nothing here is called

    refused = []
    for name, value in limits:
        try:
            kind = getattr(resource, name)
            _soft, hard = resource.getrlimit(kind)
            if hard != resource.RLIM_INFINITY:
                value = min(value, hard)
            resource.setrlimit(kind, (value, value))
        except (AttributeError, OSError, ValueError) as error:
            refused.append(f"{name} ({error})")
    return refused


def ignore_file_size_signal() -> None:
    """A write over the file-size limit fails with EFBIG instead of killing the process."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


# --- Landlock --------------------------------------------------------------------------------

# Landlock (linux/landlock.h): the syscalls have the same numbers on x86_64 and aarch64.
_SYS_LANDLOCK_CREATE_RULESET: Final = 444
_SYS_LANDLOCK_ADD_RULE: Final = 445
_SYS_LANDLOCK_RESTRICT_SELF: Final = 446
_LANDLOCK_CREATE_RULESET_VERSION: Final = 1
_LANDLOCK_RULE_PATH_BENEATH: Final = 1
#: The file-system rights each Landlock ABI handles (ABI 4 and 6 add network and scopes).
_FS_RIGHTS: Final = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 5: (1 << 16) - 1}
FS_EXECUTE: Final = 1 << 0
FS_WRITE_FILE: Final = 1 << 1
FS_READ_FILE: Final = 1 << 2
FS_READ_DIR: Final = 1 << 3
FS_TRUNCATE: Final = 1 << 14
FS_IOCTL_DEV: Final = 1 << 15
#: The rights Landlock takes on a single file (the rest apply to folders only).
_FILE_ONLY: Final = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV
_NET_BIND_TCP: Final = 1 << 0
_NET_CONNECT_TCP: Final = 1 << 1
_SCOPE_ABSTRACT_UNIX_SOCKET: Final = 1 << 0
_SCOPE_SIGNAL: Final = 1 << 1


def landlock_abi() -> int:
    """The kernel's Landlock ABI version; raises OSError (ENOSYS: not built in, EOPNOTSUPP:
    turned off at boot)."""
    version = int(_syscall(_SYS_LANDLOCK_CREATE_RULESET, None, 0, _LANDLOCK_CREATE_RULESET_VERSION))
    if version < 0:
        _fail("landlock_create_ruleset")
    return version


def landlock(read_only: Sequence[str], full: Sequence[str], writable_files: Sequence[str]) -> int:
    """Restrict this process (and what it starts) with Landlock: read and execute beneath
    ``read_only`` (folders or single files), every right beneath ``full``, read and write of
    the files ``writable_files``; every other file-system access the ABI knows is refused, and
    from ABI 4 every TCP bind and connect, from ABI 6 abstract unix sockets and signals outside
    the domain. A path that cannot be opened (a missing one) gives no right. Returns the ABI;
    raises OSError. Needs no-new-privileges set first."""
    abi = landlock_abi()
    fs = _FS_RIGHTS[max(key for key in _FS_RIGHTS if key <= abi)]
    net = _NET_BIND_TCP | _NET_CONNECT_TCP if abi >= 4 else 0
    scoped = _SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL if abi >= 6 else 0
    attr = ctypes.create_string_buffer(struct.pack("=QQQ", fs, net, scoped))
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    ruleset = int(_syscall(_SYS_LANDLOCK_CREATE_RULESET, attr, size, 0))
    if ruleset < 0:
        _fail("landlock_create_ruleset")
    try:
        file_rights = FS_READ_FILE | FS_WRITE_FILE | (FS_TRUNCATE if abi >= 3 else 0)
        rules = [(path, FS_READ_FILE | FS_READ_DIR | FS_EXECUTE) for path in read_only]
        rules += [(path, fs) for path in full]
        rules += [(path, file_rights) for path in writable_files]
        for path, rights in rules:
            _landlock_rule(ruleset, path, rights & fs)
        if _syscall(_SYS_LANDLOCK_RESTRICT_SELF, ruleset, 0) != 0:
            _fail("landlock_restrict_self")
    finally:
        os.close(ruleset)
    return abi


def _landlock_rule(ruleset: int, path: str, rights: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # missing, or out of this process's reach: nothing to allow
    try:
        if not stat.S_ISDIR(os.fstat(fd).st_mode):
            rights &= _FILE_ONLY
        rule = ctypes.create_string_buffer(struct.pack("=Qi", rights, fd))
        if _syscall(_SYS_LANDLOCK_ADD_RULE, ruleset, _LANDLOCK_RULE_PATH_BENEATH, rule, 0) != 0:
            _fail(f"landlock_add_rule {path}")
    finally:
        os.close(fd)


# --- seccomp ---------------------------------------------------------------------------------

# seccomp BPF (linux/filter.h, linux/seccomp.h, linux/audit.h).
_BPF_LD_W_ABS: Final = 0x20
_BPF_JEQ_K: Final = 0x15
_BPF_JGE_K: Final = 0x35
_BPF_JSET_K: Final = 0x45
_BPF_RET_K: Final = 0x06
_RET_ALLOW: Final = 0x7FFF0000
_RET_ERRNO: Final = 0x00050000
_DATA_NR: Final = 0
_DATA_ARCH: Final = 4
_DATA_ARG0: Final = 16  # the low 32 bits of the first argument (both machines are little-endian)
_DATA_ARG4: Final = 48  # the fifth argument's low 32 bits; its high ones follow
_X32_SYSCALL_BIT: Final = 0x40000000
_AF_UNIX: Final = 1

#: The system calls the filter names, each with its number on x86_64 and on aarch64 (checked
#: against the kernel headers by tests/test_jail_syscalls.py). clone3 is answered ENOSYS (its
#: flags sit behind a pointer the filter cannot read, and the C library then falls back to
#: clone, whose flags it can); socket is refused for every family but AF_UNIX; clone with a
#: namespace flag is refused; sendto with an address is refused; the rest are refused
#: outright. connect, sendmsg and sendmmsg are among those: a robot needs no socket but the
#: pipe it was given (and socketpair), while a unix socket with a name in the file system (an
#: SSH agent's, a session bus) would otherwise be within its reach.
_SYSCALLS: Final[dict[str, tuple[int, int]]] = {
    "socket": (41, 198), "clone": (56, 220), "clone3": (435, 435), "sendto": (44, 206),
    "connect": (42, 203), "sendmsg": (46, 211), "sendmmsg": (307, 269), "ptrace": (101, 117),
    "process_vm_readv": (310, 270), "process_vm_writev": (311, 271), "mount": (165, 40),
    "umount2": (166, 39), "pivot_root": (155, 41), "chroot": (161, 51), "unshare": (272, 97),
    "setns": (308, 268), "bpf": (321, 280), "perf_event_open": (298, 241), "keyctl": (250, 219),
    "add_key": (248, 217), "request_key": (249, 218), "userfaultfd": (323, 282),
    "kexec_load": (246, 104), "kexec_file_load": (320, 294), "init_module": (175, 105),
    "finit_module": (313, 273), "delete_module": (176, 106), "open_by_handle_at": (304, 265),
    "name_to_handle_at": (303, 264), "swapon": (167, 224), "swapoff": (168, 225),
    "reboot": (169, 142), "acct": (163, 89), "io_uring_setup": (425, 425),
    "io_uring_enter": (426, 426), "io_uring_register": (427, 427), "open_tree": (428, 428),
    "move_mount": (429, 429), "fsopen": (430, 430), "fsconfig": (431, 431), "fsmount": (432, 432),
    "fspick": (433, 433), "pidfd_getfd": (438, 438), "mount_setattr": (442, 442),
}  # fmt: skip

#: Per machine: its audit architecture and the numbers of the calls in :data:`_SYSCALLS`.
SECCOMP_MACHINES: Final[dict[str, tuple[int, dict[str, int]]]] = {
    machine: (arch, {name: numbers[column] for name, numbers in _SYSCALLS.items()})
    for column, (machine, arch) in enumerate((("x86_64", 0xC000003E), ("aarch64", 0xC00000B7)))
}


class _SockFilter(ctypes.Structure):
    _fields_ = [
        ("code", ctypes.c_uint16),
        ("jt", ctypes.c_uint8),
        ("jf", ctypes.c_uint8),
        ("k", ctypes.c_uint32),
    ]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


def seccomp_program(machine: str) -> list[tuple[int, int, int, int]]:
    """The BPF program (code, jump if true, jump if false, k) of the robot filter for
    ``machine`` (``platform.machine()``); raises KeyError for a machine it does not know.

    A system call of another architecture (a 32-bit call on x86_64, say) is refused, as is an
    x32 call; see :data:`SECCOMP_MACHINES` for the rest."""
    arch, numbers = SECCOMP_MACHINES[machine]
    special = ("socket", "clone", "clone3", "sendto")
    refused = [n for name, n in numbers.items() if name not in special]
    # Instructions with symbolic jumps, resolved below: (code, true label, false label, k).
    code: list[tuple[int, str, str, int]] = [
        (_BPF_LD_W_ABS, "", "", _DATA_ARCH),
        (_BPF_JEQ_K, "", "eperm", arch),
        (_BPF_LD_W_ABS, "", "", _DATA_NR),
        (_BPF_JGE_K, "eperm", "", _X32_SYSCALL_BIT),
        (_BPF_JEQ_K, "socket", "", numbers["socket"]),
        (_BPF_JEQ_K, "clone", "", numbers["clone"]),
        (_BPF_JEQ_K, "enosys", "", numbers["clone3"]),
        (_BPF_JEQ_K, "sendto", "", numbers["sendto"]),
        *[(_BPF_JEQ_K, "eperm", "", n) for n in refused],
        (_BPF_RET_K, "", "", _RET_ALLOW),
        (_BPF_LD_W_ABS, "socket:", "", _DATA_ARG0),
        (_BPF_JEQ_K, "allow", "eperm", _AF_UNIX),
        (_BPF_LD_W_ABS, "clone:", "", _DATA_ARG0),
        (_BPF_JSET_K, "eperm", "allow", _CLONE_NAMESPACES),
        (_BPF_LD_W_ABS, "sendto:", "", _DATA_ARG4),
        (_BPF_JEQ_K, "", "eperm", 0),
        (_BPF_LD_W_ABS, "", "", _DATA_ARG4 + 4),
        (_BPF_JEQ_K, "allow", "eperm", 0),
        (_BPF_RET_K, "allow:", "", _RET_ALLOW),
        (_BPF_RET_K, "eperm:", "", _RET_ERRNO | errno.EPERM),
        (_BPF_RET_K, "enosys:", "", _RET_ERRNO | errno.ENOSYS),
    ]
    # A label ending in ':' marks where it points (kept in the true slot of a load or return).
    where = {jt[:-1]: i for i, (_, jt, _, _) in enumerate(code) if jt.endswith(":")}
    program = []
    for i, (op, jt, jf, k) in enumerate(code):
        if op in (_BPF_LD_W_ABS, _BPF_RET_K):
            program.append((op, 0, 0, k))
            continue
        program.append((op, where[jt] - i - 1 if jt else 0, where[jf] - i - 1 if jf else 0, k))
    return program


def seccomp(machine: str | None = None) -> None:
    """Install the robot filter (:func:`seccomp_program`) on this process and its children;
    raises KeyError for an unknown machine, OSError when refused. Needs no-new-privileges."""
    program = seccomp_program(machine or platform.machine())
    filters = (_SockFilter * len(program))(*[_SockFilter(*op) for op in program])
    fprog = _SockFprog(len(program), filters)
    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(fprog))


# --- Helpers ---------------------------------------------------------------------------------


def _syscall(number: int, *args: object) -> int:
    call = libc().syscall
    call.restype = ctypes.c_long
    return int(call(ctypes.c_long(number), *[_arg(a) for a in args]))


def _arg(value: object) -> object:
    if value is None:
        return ctypes.c_void_p(None)
    if isinstance(value, int):
        return ctypes.c_long(value)
    return value


def _fail(what: str) -> None:
    number = ctypes.get_errno()
    raise OSError(number, f"{what}: {os.strerror(number)}")
