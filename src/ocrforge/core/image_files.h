// Expands PaddleOCR's --image_dir (a file or a folder) into image paths.
#pragma once
#include <string>
#include <vector>

namespace ocrforge {

// Extensions treated as images when listing a folder (lower case).
const std::vector<std::string>& image_extensions();

// A file is returned as is (whatever its extension: the decoder decides);
// a folder gives its image files, sorted by name, not recursing. Entries with
// an image extension whose target cannot be resolved (symlink loops, dangling
// links) are listed too, so that reading them fails by name, per image.
// Throws Error when the path does not exist or a folder holds no image.
// `also`: further extensions (lower case, with the dot) listed from a folder,
// e.g. {".pdf"} where documents are read too.
std::vector<std::string> list_images(const std::string& path, const std::vector<std::string>& also = {});

// File name without folder and extension ("a/b/img_1.jpg" -> "img_1").
std::string path_stem(const std::string& path);
std::string path_filename(const std::string& path);

}  // namespace ocrforge
