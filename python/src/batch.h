// The C++ half of ocrforge.dask (batch reading on a Dask cluster): one
// BatchReader per worker process reads work units (a file, or a range of a
// PDF's pages) and writes each page's files with the library's own writers
// (result_files.h, document_outputs.h, draw_ocr.h), so the files are those
// `ocrforge ocr` writes for the same input and flags, byte for byte.
#pragma once
#include <pybind11/pybind11.h>

namespace ocrforge::python {

// Adds BatchReader, batch_flags, output_stems and document_pages to `m`.
void bind_batch(pybind11::module_& m);

}  // namespace ocrforge::python
