"""Run by sandbox.py's launcher inside ``unshare --net --mount``: every mount read-only but the
scratch folder (argv[1]), then exec the rest of argv. Standalone (stdlib only, run with -I -S)."""

import ctypes
import os
import sys

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC = 32, 4096, 16384
MS_NOATIME, MS_NODIRATIME, MS_RELATIME, MS_STRICTATIME = 1024, 2048, 1 << 21, 1 << 24
FLAGS = {"nosuid": MS_NOSUID, "nodev": MS_NODEV, "noexec": MS_NOEXEC, "noatime": MS_NOATIME,
         "nodiratime": MS_NODIRATIME, "relatime": MS_RELATIME}
KEEP = ("/proc", "/sys", "/dev")  # pseudo file systems: left as they are


def _unescape(path):
    return path.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n") \
        .replace("\\134", "\\")


def main():
    scratch, command = os.path.realpath(sys.argv[1]), sys.argv[2:]
    libc = ctypes.CDLL(None, use_errno=True)

    def mount(source, target, flags):
        if libc.mount(source, target.encode(), None, flags, None) != 0:
            raise OSError(ctypes.get_errno(), f"mount {target}")

    mount(scratch.encode(), scratch, MS_BIND | MS_REC)  # its own mount: stays writable
    with open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as file:
        mounts = [(_unescape(fields[4]), fields[5]) for fields in map(str.split, file)]
    for point, options in sorted(set(mounts)):
        if point == scratch or point.startswith(scratch + "/"):
            continue
        if point != "/" and any(point == keep or point.startswith(keep + "/") for keep in KEEP):
            continue
        flags = MS_REMOUNT | MS_BIND | MS_RDONLY
        for option in options.split(","):
            flags |= FLAGS.get(option, 0)
        try:
            mount(None, point, flags)
        except OSError:
            if point == "/":
                raise
    os.chdir(scratch)
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
