#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Switch QEMU's exec log on for one window of a guest run.

    bench/tools/qemu_log_window.py CONSOLE_LOG MONITOR_SOCKET

Used by bench/kernel_breakdown.sh through bench/handler_cost.sh (HC_WATCH):
waits for the guest's "HC trace-on" line in CONSOLE_LOG, then sends the HMP
command `log in_asm,nochain,exec` to the monitor's unix socket; on "HC
trace-off" it sends `log in_asm,nochain`. The guest sleeps after each line,
so the window holds the measured command and little else. in_asm and
nochain stay on from boot: translations made before the window are logged
with their bytes, and no block is chained past the exec log.
"""
import socket
import sys
import time

TIMEOUT_S = 3600


def wait_for(path, text, t0):
    while time.time() - t0 < TIMEOUT_S:
        try:
            with open(path, errors="replace") as f:
                if text in f.read():
                    return True
        except FileNotFoundError:
            pass
        time.sleep(0.05)
    return False


def send(sock, cmd):
    c = socket.socket(socket.AF_UNIX)
    c.connect(sock)
    time.sleep(0.1)
    c.sendall((cmd + "\n").encode())
    time.sleep(0.2)
    c.close()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    log, sock = sys.argv[1], sys.argv[2]
    t0 = time.time()
    if not wait_for(log, "HC trace-on", t0):
        sys.exit("qemu_log_window: no 'HC trace-on' in %s" % log)
    send(sock, "log in_asm,nochain,exec")
    if not wait_for(log, "HC trace-off", t0):
        sys.exit("qemu_log_window: no 'HC trace-off' in %s" % log)
    send(sock, "log in_asm,nochain")


if __name__ == "__main__":
    main()
