"""Runs schemathesis (an independent, property-based API tester) against a live Bmob server, with the OpenAPI
document the server serves: generated requests, positive and negative, for every operation, and checks that no
answer is a server error and that every answer's status, content type, headers and body match the document.

usage: schemathesis_run.py BASE_URL APPLICATION_ID KEY_HEADER KEY [SCHEMATHESIS OPTIONS...]

Prints schemathesis's report; exits 1 (with the report on standard error) when a check failed.
"""
import os
import subprocess
import sys
import tempfile


def main():
    base, application_id, key_header, key = sys.argv[1:5]
    command = [
        os.path.join(os.path.dirname(sys.executable), "schemathesis"),
        "--no-color",
        "run",
        base + "/1/openapi.json",
        "--url", base,
        "--header", "X-Bmob-Application-Id: " + application_id,
        "--header", key_header + ": " + key,
    ] + sys.argv[5:]
    environment = dict(os.environ, PYTHONUNBUFFERED="1")
    environment.pop("SCHEMATHESIS_HOOKS", None)
    # In a folder of its own: whatever the run leaves behind stays out of the repository.
    with tempfile.TemporaryDirectory(prefix="bmob-schemathesis-") as folder:
        run = subprocess.run(
            command, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=environment, text=True)
    if run.returncode != 0:
        sys.stderr.write(run.stdout)
        sys.exit(1)
    print(run.stdout)


if __name__ == "__main__":
    main()
