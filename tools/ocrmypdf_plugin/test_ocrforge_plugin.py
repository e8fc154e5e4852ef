"""Unit tests of the OCRmyPDF plugin (Debian's python3 with its ocrmypdf):

    OCRFORGE_BIN=build/ocrforge OCRFORGE_TEST_IMAGE=tests/data/samples/imgs_en_254.jpg \
        /usr/bin/python3 -m unittest discover -s tools/ocrmypdf_plugin -p 'test_*.py'

Run by tests/apps/ocr_documents_cli_test.cpp (OcrDocuments.OcrmypdfPlugin*).
The tests that run ocrforge skip without OCRFORGE_BIN / OCRFORGE_TEST_IMAGE.
"""

import os
import re
import sys
import tempfile
import unittest
from argparse import Namespace
from pathlib import Path

sys.path.insert(0, os.fspath(Path(__file__).resolve().parent))

import ocrforge_plugin as plugin  # noqa: E402
from ocrmypdf.exceptions import MissingDependencyError  # noqa: E402


def options(**kw):
    base = dict(ocrforge_binary=os.environ.get("OCRFORGE_BIN", "ocrforge"), ocrforge_args="",
                ocrforge_min_dpi=plugin.DEFAULT_MIN_DPI, ocrforge_resample_dpi=plugin.DEFAULT_RESAMPLE_DPI,
                languages={"eng"}, jobs=1, pdf_renderer="sandwich")
    base.update(kw)
    return Namespace(**base)


class LanguageMapping(unittest.TestCase):
    def test_tesseract_codes_pick_the_model_set(self):
        for langs, want in [
            ({"eng"}, "en"),
            (set(), "en"),  # no -l: OCRmyPDF's eng
            (None, "en"),
            ({"eng", "deu"}, "en"),
            ({"fra"}, "en"),
            ({"ger", "fre"}, "en"),  # ISO 639-2/B
            ({"script/Latin"}, "en"),
            ({"chi_sim"}, "ch"),
            ({"chi_tra"}, "ch"),
            ({"chi_sim", "eng"}, "ch"),  # ch reads Chinese and English
            ({"chi_tra_vert"}, "ch"),
            ("eng+chi_sim", "ch"),  # ocrmypdf.ocr(language="...")
        ]:
            with self.subTest(langs=langs):
                self.assertEqual(plugin.ocrforge_lang(langs), want)

    def test_unknown_language_names_it_and_the_sets(self):
        for langs, named in [({"jpn"}, "jpn"), ({"eng", "rus"}, "rus"), ({"osd"}, "osd")]:
            with self.subTest(langs=langs):
                with self.assertRaises(MissingDependencyError) as e:
                    plugin.ocrforge_lang(langs)
                msg = str(e.exception)
                self.assertIn(f"-l {named}", msg)
                self.assertIn("ch (chi_sim", msg)
                self.assertIn("en (eng", msg)
                self.assertNotIn("eng:", msg)

    def test_explicit_lang_in_ocrforge_args_wins(self):
        self.assertEqual(plugin.explicit_lang("--lang ch"), "ch")
        self.assertEqual(plugin.explicit_lang("--use_angle_cls true --lang=en"), "en")
        self.assertIsNone(plugin.explicit_lang("--use_angle_cls true"))
        self.assertIsNone(plugin.explicit_lang(""))
        # -l jpn is then only what OCRmyPDF checks: the engine accepts it
        self.assertIn("jpn", plugin.OcrforgeEngine.languages(options(languages={"jpn"}, ocrforge_args="--lang ch")))
        self.assertNotIn("jpn", plugin.OcrforgeEngine.languages(options(languages={"jpn"})))
        self.assertTrue({"eng", "deu", "chi_sim", "chi_tra"} <= plugin.OcrforgeEngine.languages(options()))


class HocrScaling(unittest.TestCase):
    def test_boxes_baselines_and_page_go_back_to_the_original_pixels(self):
        hocr = (
            '<div class="ocr_page" id="page_1" title="image &quot;up.png&quot;; bbox 0 0 2917 3888; '
            'ppageno 0; scan_res 300 300">\n'
            '<span class="ocr_line" id="line_1_1" title="bbox 400 800 1200 880; baseline 0.012 -8; x_size 80">\n'
            '<span class="ocrx_word" id="word_1_1" title="bbox 400 800 796 880; x_wconf 97">107</span>\n'
        )
        out = plugin.scale_hocr(hocr, 2917 / 700, (700, 933), 72.0, "page.png")
        self.assertIn('title="image &quot;page.png&quot;; bbox 0 0 700 933; ppageno 0; scan_res 72 72"', out)
        self.assertIn('title="bbox 96 192 288 211; baseline 0.012 -2; x_size 19.2"', out)
        self.assertIn('title="bbox 96 192 191 211; x_wconf 97"', out)
        self.assertIn(">107</span>", out)


def _boxes(hocr):
    """{word: [centre (x, y)]} of an hOCR file's words."""
    out = {}
    for m in re.finditer(r'class="ocrx_word"[^>]*title="bbox (\d+) (\d+) (\d+) (\d+);[^"]*">([^<]+)<', hocr):
        x0, y0, x1, y1 = (int(m.group(i)) for i in range(1, 5))
        out.setdefault(m.group(5), []).append(((x0 + x1) / 2, (y0 + y1) / 2))
    return out


@unittest.skipUnless(os.environ.get("OCRFORGE_BIN") and os.environ.get("OCRFORGE_TEST_IMAGE"),
                     "set OCRFORGE_BIN and OCRFORGE_TEST_IMAGE")
class WithOcrforge(unittest.TestCase):
    """A page image at 72 ppi (the test image, half size) read resampled to
    300 ppi (x 4.17) and as it is: the same words in the same places."""

    @classmethod
    def setUpClass(cls):
        from PIL import Image

        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = Path(cls.tmp.name)
        with Image.open(os.environ["OCRFORGE_TEST_IMAGE"]) as im:
            small = im.convert("RGB").resize((im.width // 2, im.height // 2), Image.BOX)
        cls.image = cls.dir / "page.png"
        small.save(cls.image, dpi=(72, 72))
        cls.size = small.size

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def hocr(self, name, **kw):
        out = self.dir / f"{name}.hocr"
        plugin.OcrforgeEngine.generate_hocr(self.image, out, self.dir / f"{name}.txt", options(**kw))
        return out.read_text(encoding="utf-8")

    def test_low_resolution_pages_are_resampled(self):
        page = plugin._Page(self.image, options(), self.dir / "p1")
        self.assertAlmostEqual(page.scale, 300 / 72, places=2)
        self.assertEqual(page.size, self.size)
        self.assertAlmostEqual(page.dpi, 300.0, delta=0.5)
        self.assertEqual(plugin._Page(self.image, options(ocrforge_min_dpi=0), self.dir / "p2").scale, 1.0)
        self.assertEqual(plugin._Page(self.image, options(ocrforge_min_dpi=72), self.dir / "p3").scale, 1.0)
        self.assertAlmostEqual(plugin._Page(self.image, options(ocrforge_resample_dpi=144), self.dir / "p4").scale, 2.0,
                               places=2)

    def test_resampled_hocr_is_in_the_page_images_pixels(self):
        up, plain = self.hocr("up"), self.hocr("plain", ocrforge_min_dpi=0)
        w, h = self.size
        self.assertIn(f"bbox 0 0 {w} {h}; ppageno 0; scan_res 72 72", up)
        self.assertIn("page.png", up)
        a, b = _boxes(up), _boxes(plain)
        common = [word for word in a if len(a[word]) == 1 and len(b.get(word, [])) == 1 and len(word) >= 3]
        self.assertGreaterEqual(len(common), 10, (a.keys(), b.keys()))
        near = [word for word in common
                if abs(a[word][0][0] - b[word][0][0]) <= 4 and abs(a[word][0][1] - b[word][0][1]) <= 3]
        self.assertGreaterEqual(len(near), 0.9 * len(common), [(wd, a[wd], b[wd]) for wd in common if wd not in near])

    def test_text_only_page_keeps_the_page_size(self):
        import pikepdf

        out = self.dir / "up.pdf"
        plugin.OcrforgeEngine.generate_pdf(self.image, out, self.dir / "up_pdf.txt", options())
        with pikepdf.open(out) as pdf:
            box = [float(v) for v in pdf.pages[0].MediaBox]
        self.assertAlmostEqual(box[2] - box[0], self.size[0], delta=0.5)
        self.assertAlmostEqual(box[3] - box[1], self.size[1], delta=0.5)
        self.assertIn("107", (self.dir / "up_pdf.txt").read_text(encoding="utf-8"))


if __name__ == "__main__":
    unittest.main()
