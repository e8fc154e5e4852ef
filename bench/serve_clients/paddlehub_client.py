#!/usr/bin/env python3
"""PaddleHub Serving's documented OCR client, against `ocrforge serve`.

    python3 paddlehub_client.py FILE_OR_FOLDER... [--url http://127.0.0.1:8080/predict/ocr_system]

What PaddleOCR's tools/test_hubserving.py does, written out here: for each
input file (a folder gives its files, PDFs included, as that script's file
list does), POST {"images": [<Base64 of the file's bytes>]} as JSON and print
r.json()["results"][0]. PaddleHub's envelope carries an error as
{"status": "101", "msg": ..., "results": ""}, where the documented script
would fail on ""[0]; this one prints the status and message instead.
"""
import argparse
import base64
import json
import os
import sys
import time

import requests

EXTENSIONS = {"jpg", "bmp", "png", "jpeg", "rgb", "tif", "tiff", "gif", "pdf"}


def files_of(paths):
    for p in paths:
        if os.path.isdir(p):
            for name in sorted(os.listdir(p)):
                if name.rsplit(".", 1)[-1].lower() in EXTENSIONS:
                    yield os.path.join(p, name)
        else:
            yield p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--url", default="http://127.0.0.1:8080/predict/ocr_system")
    args = ap.parse_args()
    failed = 0
    for image_file in files_of(args.paths):
        with open(image_file, "rb") as f:
            data = {"images": [base64.b64encode(f.read()).decode("utf8")]}
        start = time.time()
        r = requests.post(url=args.url, headers={"Content-type": "application/json"}, data=json.dumps(data))
        body = r.json()
        print(f"{os.path.basename(image_file)}: HTTP {r.status_code}, status {body['status']!r}, {time.time() - start:.3f} s")
        if body["status"] != "000":
            print(f"  msg: {body['msg']}")
            failed += 1
            continue
        for line in body["results"][0]:
            print(f"  {line['text']}  ({line['confidence']:.3f})  {line['text_region']}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
