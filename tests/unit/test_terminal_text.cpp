// Text printed on a terminal (explain, compare --show-rows, every text table): control characters
// escaped, long text cut with a marker, and the ids suggested for one that is not there.

#include <doctest/doctest.h>

#include <string>

#include "output/id_suggestions.hpp"
#include "output/terminal_text.hpp"
#include "output/text_table.hpp"

using sqlmorph::core::id_suggestions;
using sqlmorph::core::terminal_text;

TEST_CASE("terminal_text escapes every control character and leaves printable text alone") {
  CHECK(terminal_text("plain text, 'quotes' and \\ backslashes") ==
        "plain text, 'quotes' and \\ backslashes");
  CHECK(terminal_text("Straße — 東京") == "Straße — 東京");
  CHECK(terminal_text("\x1b]0;PWNED\x07\x1b[2J") == "\\x1b]0;PWNED\\x07\\x1b[2J");
  CHECK(terminal_text("a\nb\rc\td") == "a\\nb\\rc\\td");
  CHECK(terminal_text(std::string("nul\0x", 5)) == "nul\\x00x");
  CHECK(terminal_text("del\x7f") == "del\\x7f");
  CHECK(terminal_text("\xc2\x9b"
                      "2J") == "\\u009b2J");  // C1 CSI, as UTF-8
  CHECK(terminal_text("\xe2\x80\xae"
                      "txt.exe") == "\\u202etxt.exe");  // right-to-left override
  CHECK(terminal_text("\xe2\x81\xa6x") == "\\u2066x");  // left-to-right isolate
  CHECK(terminal_text("\x9b"
                      "2J \xff") == "\\x9b2J \\xff");  // bytes that are not UTF-8
}

TEST_CASE("terminal_text cuts at a number of characters and says how many bytes it left out") {
  CHECK(terminal_text("abcdef", 6) == "abcdef");
  CHECK(terminal_text("abcdefgh", 6) == "abcdef…[+2 bytes]");
  CHECK(terminal_text("ééééé", 3) == "ééé…[+4 bytes]");  // characters, not bytes
  CHECK(terminal_text("ab\x1b"
                      "cd",
                      4) == "ab…[+3 bytes]");  // an escape is not split
  CHECK(terminal_text("ab\x1b"
                      "cd",
                      6) == "ab\\x1b…[+2 bytes]");
  const std::string huge(10'000'000, 'x');
  CHECK(terminal_text(huge, 5) == "xxxxx…[+9999995 bytes]");
  const std::string wide(1000, '\xe6');  // not UTF-8: each byte shown as \xe6 (4 characters)
  CHECK(terminal_text(wide, 9) == "\\xe6\\xe6…[+998 bytes]");
}

TEST_CASE("a text table escapes its cells and cuts them to its widest cell, rule included") {
  sqlmorph::core::text_table t;
  t.max_cell_width(8);
  t.set_header({"name\x1b[1m", "v"});
  t.add_row({std::string(1000, 'x'), "a\nb"});
  CHECK(t.render() ==
        "name\\x1b…[+3 bytes]    v\n"
        "---------------------  ----\n"
        "xxxxxxxx…[+992 bytes]  a\\nb\n");
}

TEST_CASE("id_suggestions: the same item's ids first, then ids a few edits away, at most a handful") {
  id_suggestions six("6");
  for (const char* system : {"dail", "din"})
    for (int i = 0; i < 10; ++i) six.consider(std::string(system) + ":" + std::to_string(i));
  CHECK(six.best() == std::vector<std::string>{"dail:6", "din:6"});
  CHECK(six.first() == "dail:0");

  id_suggestions typo("dial-sql:96");
  for (const char* id : {"dail-sql:95", "c3:96", "dail-sql:96", "din:96", "dail-sql:9", "dail-sql:960"})
    typo.consider(id);
  // Same item (96) nearest first, then a near one; "dail-sql:960" is as near but later.
  CHECK(typo.best() ==
        std::vector<std::string>{"dail-sql:96", "din:96", "c3:96", "dail-sql:95", "dail-sql:9"});

  id_suggestions none("something else");
  none.consider("dail:0");
  CHECK(none.best().empty());
  CHECK(none.first() == "dail:0");

  // A million ids: only the best few are kept.
  id_suggestions many("x:5", 3);
  for (int i = 0; i < 1'000'000; ++i)
    many.consider("s" + std::to_string(i % 7) + ":" + std::to_string(i % 1000));
  CHECK(many.best() == std::vector<std::string>{"s5:5", "s4:5", "s3:5"});
}
