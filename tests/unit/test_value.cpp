// Values: reference equality and hashing (TECHNIQUES.md §1), Python's str() and repr(float).

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include <sqlmorph/result.hpp>
#include <sqlmorph/value.hpp>

using sqlmorph::value;

namespace {
double bits_to_double(std::uint64_t bits) {
  return std::bit_cast<double>(bits);
}
}  // namespace

TEST_CASE("reference equality follows Python's == on values read from SQLite") {
  using sqlmorph::reference_equal;
  CHECK(reference_equal(value::null(), value::null()));
  CHECK_FALSE(reference_equal(value::null(), value::integer(0)));
  CHECK_FALSE(reference_equal(value::null(), value::text("None")));
  CHECK(reference_equal(value::integer(1), value::real(1.0)));
  CHECK(reference_equal(value::real(1.0), value::integer(1)));
  CHECK_FALSE(reference_equal(value::integer(1), value::real(1.5)));
  // Exact: 2^53 + 1 is not the double 2^53.
  CHECK_FALSE(reference_equal(value::integer(9007199254740993LL), value::real(9007199254740992.0)));
  CHECK(reference_equal(value::integer(9007199254740992LL), value::real(9007199254740992.0)));
  CHECK_FALSE(reference_equal(value::integer(std::numeric_limits<std::int64_t>::max()),
                              value::real(9223372036854775808.0)));
  CHECK(reference_equal(value::integer(std::numeric_limits<std::int64_t>::min()),
                        value::real(-9223372036854775808.0)));
  CHECK(reference_equal(value::real(0.0), value::real(-0.0)));
  CHECK(reference_equal(value::integer(0), value::real(-0.0)));
  CHECK_FALSE(reference_equal(value::real(NAN), value::real(NAN)));
  CHECK_FALSE(reference_equal(value::integer(1), value::text("1")));
  CHECK_FALSE(reference_equal(value::text("a"), value::blob("a")));
  CHECK(reference_equal(value::text("a\xff"), value::text("a\xff")));
  CHECK_FALSE(reference_equal(value::text("a"), value::text("A")));
  CHECK(reference_equal(value::blob(std::string_view("\0\1", 2)), value::blob(std::string_view("\0\1", 2))));
}

TEST_CASE("equal values hash equally") {
  using sqlmorph::reference_hash;
  CHECK(reference_hash(value::integer(1)) == reference_hash(value::real(1.0)));
  CHECK(reference_hash(value::integer(0)) == reference_hash(value::real(-0.0)));
  CHECK(reference_hash(value::integer(-7)) == reference_hash(value::real(-7.0)));
  CHECK(reference_hash(value::integer(1LL << 60)) == reference_hash(value::real(std::ldexp(1.0, 60))));
  CHECK(reference_hash(value::text("x")) == reference_hash(value::text("x")));
  CHECK(reference_hash(value::text("x")) != reference_hash(value::blob("x")));
  CHECK(reference_hash(value::integer(1)) != reference_hash(value::text("1")));
  CHECK(reference_hash(value::real(1.5)) != reference_hash(value::real(2.5)));
}

TEST_CASE("python str() of every kind") {
  using sqlmorph::python_str;
  CHECK(python_str(value::null()) == "None");
  CHECK(python_str(value::integer(-42)) == "-42");
  CHECK(python_str(value::integer(std::numeric_limits<std::int64_t>::min())) == "-9223372036854775808");
  CHECK(python_str(value::real(3.0)) == "3.0");
  CHECK(python_str(value::text("héllo")) == "héllo");
  CHECK(python_str(value::text("\xff\xfe")) == "\xff\xfe");
}

TEST_CASE("python repr(bytes) of blobs") {
  struct sample {
    std::string bytes;
    const char* repr;
  };
  const sample samples[] = {
      {"", "b''"},
      {"abc", "b'abc'"},
      {"it's", "b\"it's\""},
      {"say \"hi\"", "b'say \"hi\"'"},
      {"both ' and \"", "b'both \\' and \"'"},
      {std::string("\x00\x01\xff\x7f\x80", 5), "b'\\x00\\x01\\xff\\x7f\\x80'"},
      {"tab\tnl\ncr\r", "b'tab\\tnl\\ncr\\r'"},
      {"back\\slash", "b'back\\\\slash'"},
  };
  for (const sample& s : samples) {
    CAPTURE(s.repr);
    CHECK(sqlmorph::python_str(value::blob(s.bytes)) == s.repr);
  }
}

TEST_CASE("python repr(float): shortest round-trip digits, Python's notation rules") {
  // Generated with CPython 3.11: {bits of the double, repr(double)}.
  struct sample {
    std::uint64_t bits;
    const char* repr;
  };
  const sample samples[] = {
      {4591870180066957722ULL, "0.1"},
      {4607182418800017408ULL, "1.0"},
      {4681608360884174848ULL, "100000.0"},
      {4846369599423283200ULL, "1e+16"},
      {4831355200913801216ULL, "1000000000000000.0"},
      {4534972062662729065ULL, "1.5e-05"},
      {4547007122018943789ULL, "0.0001"},
      {4532020583610935537ULL, "1e-05"},
      {4862596447618666293ULL, "1.2345678901234568e+17"},
      {4614256656552045848ULL, "3.141592653589793"},
      {13836183955189006336ULL, "-2.5"},
      {4502148214488346440ULL, "1e-07"},
      {1ULL, "5e-324"},
      {9218868437227405311ULL, "1.7976931348623157e+308"},
      {4503599627370496ULL, "2.2250738585072014e-308"},
      {4845873199050653696ULL, "9007199254740992.0"},
      {4599075939470750516ULL, "0.30000000000000004"},
      {4936209963552724370ULL, "1e+22"},
      {4921056587992461136ULL, "1e+21"},
      {4638387860618067575ULL, "123.456"},
      {9223372036854775808ULL, "-0.0"},
      {9218868437227405312ULL, "inf"},
      {18442240474082181120ULL, "-inf"},
      {6103021453049119613ULL, "1e+100"},
      {4518436908224787108ULL, "1.2345678e-06"},
      {4861130398305394688ULL, "1e+17"},
      {4846369599423283199ULL, "9999999999999998.0"},
      {4562254508917369340ULL, "0.001"},
      {4607182418800017409ULL, "1.0000000000000002"},
      {4616583683022153318ULL, "4.35"},
      {4613205983301625446ULL, "2.675"},
      {4532020583610935537ULL, "1e-05"},
      {4533401875807174908ULL, "1.234e-05"},
      {4634309569680506880ULL, "65.5"},
      {4679546776582094848ULL, "70000.0"},
      {4680234005709193216ULL, "80000.5"},
      {17485029721327973432ULL, "-1.989032661366619e+244"},
      {7283207964119141687ULL, "7.761117632285041e+178"},
      {890727360438182992ULL, "3.980498358697587e-249"},
      {15149836622520594227ULL, "-1.5432835417340557e+88"},
      {1736392818365009963ULL, "1.3647584518757569e-192"},
      {10750541312280087032ULL, "-1.3701135617873088e-206"},
      {16781078052021535861ULL, "-1.7160537630466207e+197"},
      {3960482443532127989ULL, "6.294675241195386e-44"},
      {1585446675937841368ULL, "1.0613447212142254e-202"},
      {7713914763314685786ULL, "4.708325160387546e+207"},
      {4439448776366754703ULL, "6.387016158513563e-12"},
      {10165027665383847897ULL, "-9.973130378568733e-246"},
      {1090396360377453094ULL, "8.779753225680271e-236"},
      {10430779633273967791ULL, "-5.795503248498993e-228"},
      {17477362246067780643ULL, "-5.988180159386011e+243"},
      {11632994891556335705ULL, "-1.306052388527796e-147"},
      {10754394637803157173ULL, "-2.436117699484841e-206"},
      {1141153371300629929ULL, "2.233386999150174e-232"},
      {10801332806156616911ULL, "-3.51527970626667e-203"},
      {914761360679426580ULL, "1.5987381841032883e-247"},
      {4696429212504984810ULL, "952510.2111858402"},
      {13919408899180209039ULL, "-906834.6387644875"},
      {4694405653325732712ULL, "716936.9180973591"},
      {13914344619196792054ULL, "-420781.4273366475"},
      {13917730900078254352ULL, "-711489.833285125"},
      {13918185528298385192ULL, "-764415.5238432633"},
      {13913696163736665786ULL, "-383036.35179613123"},
      {4693678221587982680ULL, "632252.7182400627"},
      {13917104327974271014ULL, "-638547.240152125"},
      {4684847533386401984ULL, "163200.32732493244"},
      {4648831158124797691ULL, "638.913468926184"},
      {4352297246333312301ULL, "9.743057599473337e-18"},
      {4887413405182248393ULL, "5.643682931333866e+18"},
      {4806109745825123495ULL, "20595871281932.652"},
      {4601374438111822776ULL, "0.4275923056694029"},
      {4736591111812216032ULL, "465601865.839674"},
      {4525648048245155798ULL, "3.6158235594456636e-06"},
      {4530806814305124954ULL, "7.943794815224912e-06"},
      {4575872241891366874ULL, "0.008185501079576985"},
      {4617599205374541754ULL, "5.251965038114514"},
  };
  for (const sample& s : samples) {
    CAPTURE(s.repr);
    CHECK(sqlmorph::python_float_repr(bits_to_double(s.bits)) == s.repr);
  }
  CHECK(sqlmorph::python_float_repr(NAN) == "nan");
}

TEST_CASE("a result stores cells compactly and owns its text") {
  sqlmorph::result r;
  r.set_columns({"a", "b"}, {"INTEGER", "TEXT"});
  std::string text = "transient";
  r.append_integer(1);
  r.append_text(text);
  text.assign("overwritten");
  r.append_null();
  r.append_blob(std::string_view("\0z", 2));
  CHECK(r.row_count() == 2);
  CHECK(r.cell(0, 1).bytes() == "transient");
  CHECK(r.cell(1, 1).kind() == sqlmorph::value_kind::blob);
  sqlmorph::result moved = std::move(r);
  CHECK(moved.cell(0, 1).bytes() == "transient");
  sqlmorph::result copy = moved.clone();
  CHECK(copy.cell(0, 1).bytes() == "transient");
  CHECK(copy.cell(0, 1).bytes().data() != moved.cell(0, 1).bytes().data());
  // 16 bytes per cell plus payload: PERF.md target 6.
  CHECK(sizeof(sqlmorph::value) == 16);
}

TEST_CASE("row set equality ignores duplicates and order, not column order") {
  using sqlmorph::rows_set_equal;
  sqlmorph::result a;
  a.set_columns({"x", "y"});
  for (int v : {1, 2, 1, 2, 3, 4}) a.append_integer(v);
  sqlmorph::result b;
  b.set_columns({"p", "q"});
  for (int v : {3, 4, 1, 2}) b.append_integer(v);
  CHECK(rows_set_equal(a, b));
  sqlmorph::result c;
  c.set_columns({"p", "q"});
  for (int v : {2, 1, 4, 3}) c.append_integer(v);
  CHECK_FALSE(rows_set_equal(a, c));
  sqlmorph::result empty1;
  empty1.set_columns({"x"});
  sqlmorph::result empty2;
  empty2.set_columns({"y", "z"});
  CHECK(rows_set_equal(empty1, empty2));
  CHECK_FALSE(rows_set_equal(a, empty1));
}
