// Errors of the Python module's inputs, each turned into its own Python
// exception (module.cpp): the file is missing -> FileNotFoundError, a folder
// where an image was expected -> IsADirectoryError, the system refuses to
// read it -> PermissionError (OSError otherwise), the content is not a
// usable image (or document) -> ValueError, a kind of input not handled
// here -> NotImplementedError (a PDF given where one image is expected).
// Everything else ocrforge throws stays an Error (RuntimeError; UsageError:
// ValueError).
#pragma once
#include <string>

#include "ocrforge/core/error.h"

namespace ocrforge::python {

class InputNotFound : public Error {
 public:
  using Error::Error;
};

class InputIsFolder : public Error {
 public:
  using Error::Error;
};

class InputUnreadable : public Error {
 public:
  InputUnreadable(const std::string& what, int err) : Error(what), errno_(err) {}
  int error_number() const { return errno_; }

 private:
  int errno_;
};

class BadInput : public Error {
 public:
  using Error::Error;
};

class NotSupportedYet : public Error {
 public:
  using Error::Error;
};

}  // namespace ocrforge::python
