#pragma once
// Text from a run, a cases file or a database made safe to print on a terminal. A question, a SQL
// text, a result cell or an error message can hold ESC, BEL and other control characters, which a
// terminal would obey (retitle the window, clear the screen, move the cursor): they are shown as
// escapes instead — `\n`, `\r`, `\t`, `\xHH` for the other C0 controls and DEL, `\u0080`..`\u009f`
// for the C1 controls, `\u202e` and the like for the bidirectional overrides and isolates
// (U+202A..U+202E, U+2066..U+2069), `\xHH` for each byte that is not valid UTF-8. Everything else is
// printed as it is (backslashes too, so `\n` in the text and an escaped line break look alike).

#include <cstddef>
#include <string>
#include <string_view>

namespace sqlmorph::core {

/// `text` with its control characters escaped (see above).
std::string terminal_text(std::string_view text);

/// terminal_text() of at most `max_chars` characters (escapes count their full length): a longer
/// text is cut there and ends with "…[+N bytes]", N the bytes of `text` left out.
std::string terminal_text(std::string_view text, std::size_t max_chars);

}  // namespace sqlmorph::core
