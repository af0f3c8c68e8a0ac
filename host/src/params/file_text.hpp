// Text from a user's file as messages show it: a reader that quotes what it could not read must
// not pass the file's control bytes to the terminal (an escape sequence would act on it, a NUL
// cut the message short), so every byte that is not printable ASCII is written by its code.
#pragma once

#include <string>
#include <string_view>

namespace crowd {

/// One character as a message names it: a printable one quoted ("'x'"), another by its code
/// ("byte 0x1b").
std::string describeByte(char c);

/// `text`, quoted, with every byte that is not printable ASCII written as describeByte does:
/// 'octi[byte 0x00]le'.
std::string quotedFileText(std::string_view text);

}  // namespace crowd
