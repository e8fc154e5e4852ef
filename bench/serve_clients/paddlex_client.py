#!/usr/bin/env python3
"""PaddleX's documented OCR serving client, against `ocrforge serve`.

    python3 paddlex_client.py FILE [--url http://127.0.0.1:8080/ocr] [--full]

What the PaddleOCR 3.x / PaddleX docs ("General OCR pipeline", serving,
Python call example) tell a client to do, written out here: Base64 the file,
POST {"file": <Base64>, "fileType": 0 for a PDF, 1 for an image} to /ocr,
check for 200, then for each entry of result["ocrResults"] print its
prunedResult and save the Base64 JPEG in ocrImage as ocr_<i>.jpg. By default
a page's rec_texts are printed instead of the whole prunedResult (boxes and
scores included); --full prints it whole, as the docs' snippet does.
"""
import argparse
import base64
import json
import sys

import requests


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--url", default="http://127.0.0.1:8080/ocr")
    ap.add_argument("--full", action="store_true", help="print each prunedResult whole")
    ap.add_argument("--out", default=".", help="folder for ocr_<i>.jpg")
    args = ap.parse_args()

    with open(args.file, "rb") as f:
        file_data = base64.b64encode(f.read()).decode("ascii")
    # For PDF documents fileType is 0; for images, 1 (PaddleX's docs).
    payload = {"file": file_data, "fileType": 0 if args.file.lower().endswith(".pdf") else 1}

    response = requests.post(args.url, json=payload)
    if response.status_code != 200:
        print(f"HTTP {response.status_code}: {response.json().get('errorMsg')}")
        return 1
    result = response.json()["result"]
    for i, res in enumerate(result["ocrResults"]):
        pruned = res["prunedResult"]
        if args.full:
            print(pruned)
        else:
            print(f"page {i + 1}: image_size {pruned['image_size']}, rec_texts {json.dumps(pruned['rec_texts'], ensure_ascii=False)}")
        ocr_img_path = f"{args.out}/ocr_{i}.jpg"
        with open(ocr_img_path, "wb") as f:
            f.write(base64.b64decode(res["ocrImage"]))
        print(f"Output image saved at {ocr_img_path}")
    print("dataInfo:", json.dumps(result["dataInfo"]))
    dropped = response.headers.get("X-Ocrforge-Pages-Dropped")
    if dropped:
        print("X-Ocrforge-Pages-Dropped:", dropped)
    return 0


if __name__ == "__main__":
    sys.exit(main())
