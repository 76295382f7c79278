#pragma once
// The HTML report's page, style and script (report/report.html, .css, .js), compiled in.

namespace sqlmorph::core::report_assets {

extern const char* const page;  ///< with /*SQLMORPH_CSS*/, /*SQLMORPH_JS*/ and /*SQLMORPH_DATA*/ to fill
extern const char* const style;
extern const char* const script;

}  // namespace sqlmorph::core::report_assets
