#!/usr/bin/python3
"""A closed loop of ValidateRecord calls through a balancer, with Python's
grpcio (Debian's python3-grpcio), as a Python application would make them:
CONCURRENCY calls outstanding on one channel (one thread each, each answer
starting the thread's next call) for SECONDS from the first call (SECONDS 0:
one call, whatever it answers); every call has a 10 s deadline. With SERVICE_CONFIG (a file, e.g.
docker/service-config.json) the channel has that service config, so grpcio
retries what its retry policy names, below the application. For
tests/e2e/failover_test.sh (a replica frozen, then killed, mid-run).

The messages come from proto/scribe/v1/*.proto, compiled with protoc into a
temporary folder at start.

Prints, like bench/loadgen's report:
  started                       once the first call has answered OK
  result completed=N failed=M   every call made, and those that failed
  (a call fails when it ends with an error or its record is not valid)
      failed: CODE: message (n)   one line per distinct failure
Exits 0 when the run itself worked (it does not judge the failures), 1 when
no call succeeded within 20 s, 2 on bad usage.

Usage: failover_client.py ADDRESS RECORD SECONDS CONCURRENCY [SERVICE_CONFIG]
"""
import collections
import importlib
import os
import subprocess
import sys
import tempfile
import threading
import time

import grpc

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))


def load_messages(folder):
    proto = os.path.join(ROOT, "proto")
    subprocess.run(["protoc", "-I", proto, "--python_out", folder,
                    "scribe/v1/record.proto", "scribe/v1/ruleset.proto", "scribe/v1/scribe_service.proto"],
                   check=True)
    sys.path.insert(0, folder)
    return importlib.import_module("scribe.v1.scribe_service_pb2")


def main(argv):
    if len(argv) not in (5, 6) or float(argv[3]) < 0 or int(argv[4]) <= 0:
        print("usage: failover_client.py ADDRESS RECORD SECONDS CONCURRENCY [SERVICE_CONFIG]", file=sys.stderr)
        return 2
    address, record, seconds, concurrency = argv[1], argv[2], float(argv[3]), int(argv[4])
    options = []
    if len(argv) == 6:
        with open(argv[5], encoding="utf-8") as f:
            options = [("grpc.service_config", f.read())]
    with open(record, "rb") as f:
        text = f.read()
    with tempfile.TemporaryDirectory(prefix="scribe-failover-client.") as folder:
        pb = load_messages(folder)
    request = pb.ValidateRecordRequest(input=pb.RecordInput(text=text))

    channel = grpc.insecure_channel(address, options=options)
    validate = channel.unary_unary("/scribe.v1.ScribeService/ValidateRecord",
                                   request_serializer=pb.ValidateRecordRequest.SerializeToString,
                                   response_deserializer=pb.ValidateRecordResponse.FromString)
    lock = threading.Lock()
    tally = {"completed": 0, "failed": 0, "end_at": 0.0}
    errors = collections.Counter()

    def one():
        failure = ""
        try:
            if not validate(request, timeout=10).valid:
                failure = "OK but the record is not valid"
        except grpc.RpcError as e:
            failure = f"{e.code().name}: {e.details()}"
        with lock:
            tally["completed"] += 1
            if failure:
                tally["failed"] += 1
                errors[failure] += 1
            elif tally["end_at"] == 0:
                tally["end_at"] = time.monotonic() + seconds
                print("started", flush=True)

    def worker():
        if seconds == 0:
            return one()
        # Until the first answer, one call at a time; give up after 20 s
        # without any (the balancer never answered).
        give_up = time.monotonic() + 20
        while True:
            with lock:
                end_at = tally["end_at"]
            if time.monotonic() >= (end_at or give_up):
                return
            one()

    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    channel.close()
    print(f"result completed={tally['completed']} failed={tally['failed']}")
    for what, n in errors.items():
        print(f"    failed: {what} ({n})")
    return 0 if tally["end_at"] or seconds == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
