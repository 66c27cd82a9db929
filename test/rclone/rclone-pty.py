"""Drives a command through a pseudo-terminal: waits for each expected text, then types its answer.

usage: rclone-pty.py SCRIPT_JSON -- command args...
SCRIPT_JSON is a list of [expect, send] pairs; send null sends Ctrl-C.
Prints everything the program wrote; exits with the program's exit code.
"""
import json, os, pty, select, sys, time

script = json.loads(sys.argv[1])
command = sys.argv[sys.argv.index("--") + 1:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)

output = b""
def read_until(text, timeout=20.0):
    global output
    end = time.time() + timeout
    while text.encode() not in output:
        if time.time() > end:
            sys.stdout.write(output.decode(errors="replace"))
            sys.stderr.write("\nTIMEOUT waiting for %r\n" % text)
            os.kill(pid, 9)
            sys.exit(99)
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                output += os.read(fd, 65536)
            except OSError:
                break

for expect, send in script:
    read_until(expect)
    # Later expectations must match text printed after this answer.
    consumed = output
    output = b""
    sys.stdout.write(consumed.decode(errors="replace"))
    os.write(fd, b"\x03" if send is None else (send + "\r").encode())

end = time.time() + 20
while time.time() < end:
    ready, _, _ = select.select([fd], [], [], 0.1)
    if not ready:
        continue
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    output += chunk
sys.stdout.write(output.decode(errors="replace"))
sys.stdout.flush()
_, status = os.waitpid(pid, 0)
sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))
