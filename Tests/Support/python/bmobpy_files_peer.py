"""Uploads, downloads and deletes a file through bmobpy (Bmob's Python SDK, from PyPI) against a test server.

Usage: bmobpy_files_peer.py <base URL> <application id> <REST API key>
Prints one JSON line: what the server answered at each step.
"""
import json
import os
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request

import bmobpy.bmob
from bmobpy import Bmob

# bmobpy 1.10.1 calls urlparse in delFile without importing it (its import is commented out).
bmobpy.bmob.urlparse = urllib.parse.urlparse

base, application_id, rest_key = sys.argv[1:4]
bmob = Bmob(application_id, rest_key)
bmob.resetDomain(base)

content = bytes(range(256)) * 40
folder = tempfile.mkdtemp()
path = os.path.join(folder, "report.pdf")
with open(path, "wb") as handle:
    handle.write(content)

uploaded = bmob.upload(path)
report = {"uploaded": bool(uploaded)}
if uploaded:
    report["url"] = uploaded.url
    report["filename"] = uploaded.filename
    with urllib.request.urlopen(uploaded.url) as answer:
        report["downloadedMatches"] = answer.read() == content
        report["contentType"] = answer.headers.get("Content-Type")
    report["deleted"] = bmob.delFile(uploaded.url)
    try:
        urllib.request.urlopen(uploaded.url)
        report["afterDelete"] = 200
    except urllib.error.HTTPError as error:
        report["afterDelete"] = error.code
    report["deletedAgain"] = bmob.delFile(uploaded.url)
os.remove(path)
os.rmdir(folder)
print(json.dumps(report))
