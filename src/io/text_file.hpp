#pragma once
// Whole-file text writes that a reader never sees half done: write `<name>.tmp`, then rename over the target.
#include <filesystem>
#include <string>

namespace eddy::io {

/// Replaces `path` with `text` atomically (same folder tmp file + rename); throws eddy::Error on failure.
void write_text_atomically(const std::filesystem::path& path, const std::string& text);

/// The whole content of a text file; throws eddy::Error if it cannot be read.
std::string read_text(const std::filesystem::path& path);

}  // namespace eddy::io
