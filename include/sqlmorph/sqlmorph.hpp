#pragma once
/// \file sqlmorph.hpp
/// Everything a plugin author needs, in one include.

#include "sqlmorph/backend.hpp"
#include "sqlmorph/cell_matcher.hpp"
#include "sqlmorph/column_matcher.hpp"
#include "sqlmorph/embedder.hpp"
#include "sqlmorph/hash.hpp"
#include "sqlmorph/judge.hpp"
#include "sqlmorph/match.hpp"
#include "sqlmorph/normalizer.hpp"
#include "sqlmorph/options.hpp"
#include "sqlmorph/plugin.hpp"
#include "sqlmorph/query.hpp"
#include "sqlmorph/result.hpp"
#include "sqlmorph/row_matcher.hpp"
#include "sqlmorph/scorer.hpp"
#include "sqlmorph/sql_lexer.hpp"
#include "sqlmorph/sql_rewriter.hpp"
#include "sqlmorph/statement_gate.hpp"
#include "sqlmorph/unicode.hpp"
#include "sqlmorph/value.hpp"
#include "sqlmorph/version.hpp"
