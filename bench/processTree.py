"""
Runs a command and writes, as JSON on fd 3, the wall seconds until it exits and the CPU seconds
(user + system) of its whole process tree — including processes it left behind: this process is
a child subreaper (prctl), so orphans of the tree are re-parented here; those still running when
the command exits are killed (counted in "leftover") and every one is reaped, so its CPU counts.
Used by bench/yamlPreview.ts, since a process re-parented to init is lost to the caller's rusage.
"""
import ctypes
import json
import os
import signal
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def children(me):
    """Pids whose parent is `me`, from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                if int(stat.read().rsplit(") ", 1)[1].split()[1]) == me:
                    found.append(int(entry))
        except (OSError, IndexError):
            pass
    return found


libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
    raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")
started = time.monotonic()
code = subprocess.Popen(sys.argv[1:]).wait()
wall = time.monotonic() - started
leftover = 0
while True:
    for pid in children(os.getpid()):
        os.kill(pid, signal.SIGKILL)
        leftover += 1
    try:
        os.waitpid(-1, 0)
    except ChildProcessError:
        break
times = os.times()
os.write(3, json.dumps({"wall": wall, "cpu": times.children_user + times.children_system, "leftover": leftover}).encode())
sys.exit(code)
