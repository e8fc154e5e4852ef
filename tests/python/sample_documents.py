"""Small documents for the Python tests and examples, written with the
standard library alone (no Pillow, no PDF library): a scanned PDF whose pages
are JPEG files as they are (DCTDecode, the bytes unchanged), and an
uncompressed multi-page RGB TIFF.

    python3 tests/python/sample_documents.py scan.pdf

writes the PDF the examples of docs/python.md read: the receipt and the
street sign of tests/data/samples, one page each, at 144 dpi (so that a page
rendered at 144 dpi, the Python API's default, has the JPEG's size).
"""
import os
import struct
import sys

SAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "samples")
SCAN_PAGES = [os.path.join(SAMPLES, "imgs_en_254.jpg"), os.path.join(SAMPLES, "imgs_ger_1.jpg")]


def jpeg_size(data):
    """(width, height, components) from a JPEG's SOF segment."""
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            raise ValueError("not a JPEG marker")
        marker = data[i + 1]
        if marker == 0xFF:
            i += 1
            continue
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return width, height, data[i + 9]
        i += 2 + length
    raise ValueError("no SOF segment")


def write_pdf(path, jpeg_paths, dpi=144):
    """A PDF with one page per JPEG, each filling its page at `dpi`."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", None]
    kids = []
    for jpeg in jpeg_paths:
        with open(jpeg, "rb") as f:
            data = f.read()
        w, h, comps = jpeg_size(data)
        pw, ph = w * 72.0 / dpi, h * 72.0 / dpi
        colour = {1: b"/DeviceGray", 3: b"/DeviceRGB", 4: b"/DeviceCMYK"}[comps]
        n = len(objects) + 1  # this page's image, content, page object numbers: n, n + 1, n + 2
        objects.append(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace %s /BitsPerComponent 8 "
                       b"/Filter /DCTDecode /Length %d >>\nstream\n" % (w, h, colour, len(data)) + data +
                       b"\nendstream")
        content = b"q %.4f 0 0 %.4f 0 0 cm /Im0 Do Q" % (pw, ph)
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.4f %.4f] /Resources << /XObject << /Im0 %d 0 R "
                       b">> >> /Contents %d 0 R >>" % (pw, ph, n, n + 1))
        kids.append(b"%d 0 R" % (n + 2))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), len(kids))
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    with open(path, "wb") as f:
        f.write(out)


def write_tiff(path, rgb_pages, dpi=144):
    """An uncompressed little-endian TIFF, one RGB page per (H, W, 3) uint8
    array (anything with .shape and .tobytes())."""
    out = bytearray(b"II*\x00\x00\x00\x00\x00")  # first IFD's offset filled in below
    link = 4  # where the offset of the next IFD goes
    for page in rgb_pages:
        h, w = page.shape[:2]
        pixels = page.tobytes()
        strip = len(out)
        out += pixels
        if len(out) % 2:
            out += b"\x00"
        extra = len(out)  # BitsPerSample's 3 shorts, then X and Y resolution
        out += struct.pack("<3H", 8, 8, 8) + b"\x00\x00" + struct.pack("<4I", dpi, 1, dpi, 1)
        tags = [(256, 4, 1, w), (257, 4, 1, h), (258, 3, 3, extra), (259, 3, 1, 1), (262, 3, 1, 2),
                (273, 4, 1, strip), (277, 3, 1, 3), (278, 4, 1, h), (279, 4, 1, len(pixels)),
                (282, 5, 1, extra + 8), (283, 5, 1, extra + 16), (284, 3, 1, 1), (296, 3, 1, 2)]
        ifd = len(out)
        struct.pack_into("<I", out, link, ifd)
        out += struct.pack("<H", len(tags))
        for tag, kind, count, value in tags:
            packed = struct.pack("<HH", value, 0) if kind == 3 and count == 1 else struct.pack("<I", value)
            out += struct.pack("<HHI", tag, kind, count) + packed
        link = len(out)
        out += b"\x00\x00\x00\x00"
    with open(path, "wb") as f:
        f.write(out)


if __name__ == "__main__":
    write_pdf(sys.argv[1] if len(sys.argv) > 1 else "scan.pdf", SCAN_PAGES)
