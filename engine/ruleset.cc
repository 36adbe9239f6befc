#include "engine/ruleset.h"

#include <openssl/evp.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/board.h"
#include "engine/preset_data.h"
#include "engine/status_macros.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"

namespace scribe {
namespace {

namespace pb = ::google::protobuf;
using pb::TextFormat;

constexpr int kMaxBaseDepth = 8;
// A reference or ruleset text longer than this is refused unread.
constexpr size_t kMaxRulesetText = 64 * 1024;

struct PresetEntry {
  const char* id;
  std::vector<std::string> aliases;
};

// The order of docs/rulesets.md and RULESETS.md.
const std::vector<PresetEntry>& PresetOrder() {
  static const std::vector<PresetEntry> kOrder = {
      {"finkel", {}},        {"finkel-blank4", {}},        {"masters", {}},
      {"blitz", {}},         {"sawah", {}},                {"sawah-tablet", {"aseb"}},
      {"sawah-marks", {}},   {"turnover", {}},             {"murray", {}},
      {"skiriuk", {}},
  };
  return kOrder;
}

const std::string* PresetTextFor(absl::string_view id) {
  for (const PresetText& p : PresetTexts()) {
    if (p.file_id == id) return &p.text;
  }
  return nullptr;
}

// Maps an alias to its preset id; returns the name itself otherwise.
std::string CanonicalPresetId(absl::string_view name) {
  for (const PresetEntry& e : PresetOrder()) {
    for (const std::string& alias : e.aliases) {
      if (alias == name) return e.id;
    }
  }
  return std::string(name);
}

// Collects the text parser's errors and warnings (unknown fields are
// warnings when unknown fields are allowed: we want all of them listed).
class ProblemCollector : public pb::io::ErrorCollector {
 public:
  ProblemCollector(std::vector<FieldProblem>* out, std::string field_prefix, std::string where,
                   absl::string_view text)
      : out_(out), prefix_(std::move(field_prefix)), where_(std::move(where)), text_(text) {}

  void AddError(int line, int column, const std::string& message) override {
    Add(line, column, message);
  }
  void AddWarning(int line, int column, const std::string& message) override {
    Add(line, column, message);
    ++warnings_;
  }
  int count() const { return count_; }
  int warnings() const { return warnings_; }

 private:
  void Add(int line, int column, const std::string& message) {
    ++count_;
    std::string field = prefix_;
    // "Message type "scribe.v1.Dice" has no field named "x"."
    static constexpr char kNoField[] = "has no field named \"";
    if (auto pos = message.find(kNoField); pos != std::string::npos) {
      const size_t start = pos + sizeof(kNoField) - 1;
      const size_t end = message.find('"', start);
      std::string name = message.substr(start, end - start);
      const bool in_dice = message.find("scribe.v1.Dice") != std::string::npos;
      if (prefix_.empty()) field = absl::StrCat(in_dice ? "dice." : "", name);
      // The parser points past the key; point at the key itself.
      std::vector<absl::string_view> lines = absl::StrSplit(text_, '\n');
      if (line >= 0 && line < static_cast<int>(lines.size())) {
        const size_t at = lines[line].rfind(name, static_cast<size_t>(column));
        if (at != absl::string_view::npos) column = static_cast<int>(at);
      }
      out_->push_back({field, absl::StrCat(where_, "line ", line + 1, ":", column + 1,
                                           ": unknown key \"", name, "\"")});
      return;
    }
    out_->push_back({field, absl::StrCat(where_, "line ", line + 1, ":", column + 1, ": ", message)});
  }

  std::vector<FieldProblem>* out_;
  std::string prefix_;
  std::string where_;
  absl::string_view text_;
  int count_ = 0;
  int warnings_ = 0;
};

// Parses a ruleset text. Returns false when the text does not parse; an
// unknown key is a problem but the rest still parses (*readable stays true),
// so that the other problems can be listed too.
bool ParseRulesetText(absl::string_view text, v1::Ruleset* out, TextFormat::ParseInfoTree* tree,
                      std::vector<FieldProblem>* problems, const std::string& field_prefix,
                      const std::string& where, bool* readable = nullptr) {
  TextFormat::Parser parser;
  ProblemCollector collector(problems, field_prefix, where, text);
  parser.RecordErrorsTo(&collector);
  parser.WriteLocationsTo(tree);
  parser.AllowUnknownField(true);
  const bool ok = parser.ParseFromString(std::string(text), out);
  if (readable != nullptr) *readable = ok && collector.count() == collector.warnings();
  return ok && collector.count() == 0;
}

// Copies into `dst` every field of `src` that the text mentioned (as
// recorded in `tree`): a mentioned field replaces the base's whole value,
// a mentioned sub-message merges field by field.
void MergeMentioned(const pb::Message& src, const TextFormat::ParseInfoTree& tree,
                    pb::Message* dst) {
  const pb::Descriptor* desc = src.GetDescriptor();
  const pb::Reflection* sr = src.GetReflection();
  const pb::Reflection* dr = dst->GetReflection();
  for (int i = 0; i < desc->field_count(); ++i) {
    const pb::FieldDescriptor* f = desc->field(i);
    if (f->is_repeated()) {
      if (tree.GetLocation(f, 0).line < 0) continue;
      dr->ClearField(dst, f);
      const int n = sr->FieldSize(src, f);
      for (int k = 0; k < n; ++k) {
        switch (f->cpp_type()) {
          case pb::FieldDescriptor::CPPTYPE_INT32:
            dr->AddInt32(dst, f, sr->GetRepeatedInt32(src, f, k));
            break;
          case pb::FieldDescriptor::CPPTYPE_STRING:
            dr->AddString(dst, f, sr->GetRepeatedString(src, f, k));
            break;
          default:
            assert(false && "ruleset has no other repeated types");
        }
      }
      continue;
    }
    if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      const TextFormat::ParseInfoTree* nested = tree.GetTreeForNested(f, -1);
      if (nested == nullptr) continue;
      MergeMentioned(sr->GetMessage(src, f), *nested, dr->MutableMessage(dst, f));
      continue;
    }
    if (tree.GetLocation(f, -1).line < 0) continue;
    switch (f->cpp_type()) {
      case pb::FieldDescriptor::CPPTYPE_INT32:
        dr->SetInt32(dst, f, sr->GetInt32(src, f));
        break;
      case pb::FieldDescriptor::CPPTYPE_BOOL:
        dr->SetBool(dst, f, sr->GetBool(src, f));
        break;
      case pb::FieldDescriptor::CPPTYPE_STRING:
        dr->SetString(dst, f, sr->GetString(src, f));
        break;
      case pb::FieldDescriptor::CPPTYPE_ENUM:
        dr->SetEnumValue(dst, f, sr->GetEnumValue(src, f));
        break;
      default:
        assert(false && "ruleset has no other scalar types");
    }
  }
}

// Merges a parsed text onto `dst`. A text that gives light's path but not
// dark's means dark's to be the mirror of the new path, not the base's.
void MergeRulesetText(const v1::Ruleset& parsed, const TextFormat::ParseInfoTree& tree,
                      v1::Ruleset* dst) {
  const pb::Descriptor* d = v1::Ruleset::descriptor();
  const bool path = tree.GetLocation(d->FindFieldByName("path"), 0).line >= 0;
  const bool dark = tree.GetLocation(d->FindFieldByName("dark_path"), 0).line >= 0;
  MergeMentioned(parsed, tree, dst);
  if (path && !dark) dst->clear_dark_path();
}

void SortRepeated(google::protobuf::RepeatedField<int32_t>* f) { std::sort(f->begin(), f->end()); }

void SortIndexLists(v1::Ruleset* r) {
  SortRepeated(r->mutable_extra_roll_squares());
  SortRepeated(r->mutable_safe_squares());
  SortRepeated(r->mutable_phase_starts());
  SortRepeated(r->mutable_entry_rolls());
  SortRepeated(r->mutable_auto_place_squares());
}

void FillDefaults(v1::Ruleset* r) {
  // Tile names as the board names them ("a4" is A4), so that spelling does
  // not change the digest.
  for (std::string& name : *r->mutable_path()) {
    if (const auto tile = ParseTileName(name)) name = TileName(*tile);
  }
  for (std::string& name : *r->mutable_dark_path()) {
    if (const auto tile = ParseTileName(name)) name = TileName(*tile);
  }
  if (r->board() == v1::BOARD_UNSPECIFIED) r->set_board(v1::BOARD_UR);
  if (r->bear_off() == v1::BEAR_OFF_UNSPECIFIED) r->set_bear_off(v1::BEAR_OFF_EXACT);
  if (r->opening() == v1::OPENING_UNSPECIFIED) r->set_opening(v1::OPENING_AGREED);
  if (r->auto_place_to() == 0) r->set_auto_place_to(1);
  if (r->dark_path_size() == 0) {
    for (const std::string& name : r->path()) {
      const auto tile = ParseTileName(name);
      r->add_dark_path(tile ? TileName(MirrorTile(*tile)) : name);
    }
  }
  r->clear_base();
}

absl::StatusOr<v1::Ruleset> ResolveReferenceImpl(absl::string_view reference, int depth,
                                                 std::vector<FieldProblem>* problems);

absl::StatusOr<v1::Ruleset> ResolveTextImpl(absl::string_view text, int depth,
                                            std::vector<FieldProblem>* problems,
                                            const std::string& where) {
  if (text.size() > kMaxRulesetText) {
    problems->push_back({"", absl::StrCat(where, "ruleset text is ", text.size(),
                                          " bytes, more than the ", kMaxRulesetText, " allowed")});
    return absl::InvalidArgumentError(problems->back().message);
  }
  v1::Ruleset parsed;
  TextFormat::ParseInfoTree tree;
  bool readable = false;
  const bool clean = ParseRulesetText(text, &parsed, &tree, problems, "", where, &readable);
  if (!readable) return absl::InvalidArgumentError("the ruleset text does not parse");
  v1::Ruleset result;
  if (!parsed.base().empty()) {
    std::vector<FieldProblem> base_problems;
    auto base = ResolveReferenceImpl(parsed.base(), depth + 1, &base_problems);
    if (!base.ok()) {
      for (FieldProblem& p : base_problems) {
        problems->push_back({"base", absl::StrCat("base \"", parsed.base(), "\": ",
                                                  p.field.empty() ? "" : p.field + ": ", p.message)});
      }
      if (base_problems.empty()) {
        problems->push_back({"base", std::string(base.status().message())});
      }
      return absl::InvalidArgumentError("the base ruleset does not resolve");
    }
    result = *std::move(base);
    // A derived ruleset is not its base: it names itself or stays unnamed.
    result.clear_id();
    result.clear_title();
    result.clear_source();
  }
  MergeRulesetText(parsed, tree, &result);
  FillDefaults(&result);
  std::vector<FieldProblem> found = CheckRuleset(result);
  if (!found.empty() || !clean) {
    problems->insert(problems->end(), found.begin(), found.end());
    return absl::InvalidArgumentError("the ruleset is not playable");
  }
  SortIndexLists(&result);
  return result;
}

// Finds the field a dotted override key names ("pieces", "dice.count").
const pb::FieldDescriptor* FindKey(absl::string_view key, std::vector<std::string>* parts) {
  *parts = absl::StrSplit(key, '.');
  const pb::Descriptor* desc = v1::Ruleset::descriptor();
  const pb::FieldDescriptor* f = nullptr;
  for (size_t i = 0; i < parts->size(); ++i) {
    if (desc == nullptr) return nullptr;
    f = desc->FindFieldByName((*parts)[i]);
    if (f == nullptr) return nullptr;
    desc = f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE ? f->message_type() : nullptr;
  }
  return f;
}

// One override value as text format: strings are quoted unless they are
// already, everything else is passed through for the parser to judge.
std::string OverrideValueText(const pb::FieldDescriptor* f, absl::string_view value) {
  auto one = [f](absl::string_view v) -> std::string {
    v = absl::StripAsciiWhitespace(v);
    if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_STRING && !absl::StartsWith(v, "\"")) {
      return absl::StrCat("\"", absl::CEscape(v), "\"");
    }
    return std::string(v);
  };
  value = absl::StripAsciiWhitespace(value);
  if (absl::ConsumePrefix(&value, "[")) {
    if (!absl::ConsumeSuffix(&value, "]")) return std::string(value);  // parser reports it
    std::vector<std::string> items;
    for (absl::string_view item : absl::StrSplit(value, absl::ByAnyChar(", "), absl::SkipEmpty())) {
      items.push_back(one(item));
    }
    return absl::StrCat("[", absl::StrJoin(items, ", "), "]");
  }
  return one(value);
}

// One override value: a token ([A-Za-z0-9_.+-]), a quoted string, or a
// bracketed list of them; nothing the text-format parser would read as more
// fields.
bool IsSimpleOverrideValue(absl::string_view value) {
  value = absl::StripAsciiWhitespace(value);
  auto token = [](absl::string_view t) {
    t = absl::StripAsciiWhitespace(t);
    if (!t.empty() && t.front() == '"') {
      // A quoted string with \" and \\ escapes, closed at its very end.
      for (size_t i = 1; i < t.size(); ++i) {
        if (t[i] == '\\') {
          ++i;
        } else if (t[i] == '"') {
          return i == t.size() - 1;
        }
      }
      return false;
    }
    if (t.empty()) return false;
    for (char c : t) {
      if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '+' && c != '-') {
        return false;
      }
    }
    return true;
  };
  if (absl::ConsumePrefix(&value, "[")) {
    if (!absl::ConsumeSuffix(&value, "]")) return false;
    for (absl::string_view item : absl::StrSplit(value, absl::ByAnyChar(", "), absl::SkipEmpty())) {
      if (!token(item)) return false;
    }
    return true;
  }
  return token(value);
}

// Splits "a=1, b=[1,2], c=x" at the commas outside brackets and quotes.
std::vector<std::string> SplitOverrides(absl::string_view args) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  bool quoted = false;
  for (char c : args) {
    if (c == '"') quoted = !quoted;
    if (!quoted && c == '[') ++depth;
    if (!quoted && c == ']') --depth;
    if (!quoted && depth == 0 && c == ',') {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    cur.push_back(c);
  }
  out.push_back(cur);
  return out;
}

absl::StatusOr<v1::Ruleset> ResolveReferenceImpl(absl::string_view reference, int depth,
                                                 std::vector<FieldProblem>* problems) {
  if (depth > kMaxBaseDepth) {
    problems->push_back({"base", absl::StrCat("rulesets build on each other more than ",
                                              kMaxBaseDepth, " deep (a cycle?)")});
    return absl::InvalidArgumentError(problems->back().message);
  }
  if (reference.size() > kMaxRulesetText) {
    problems->push_back({"", "the ruleset reference is too long"});
    return absl::InvalidArgumentError(problems->back().message);
  }
  absl::string_view ref = absl::StripAsciiWhitespace(reference);
  absl::string_view name = ref;
  absl::string_view args;
  bool has_args = false;
  if (const size_t open = ref.find('('); open != absl::string_view::npos) {
    name = absl::StripAsciiWhitespace(ref.substr(0, open));
    args = ref.substr(open + 1);
    if (!absl::ConsumeSuffix(&args, ")")) {
      problems->push_back({"", absl::StrCat("ruleset reference \"", ref,
                                            "\" opens \"(\" but does not end with \")\"")});
      return absl::InvalidArgumentError(problems->back().message);
    }
    has_args = true;
  }
  if (const char* why = DeclinedRulesetReason(name)) {
    problems->push_back({"", why});
    return absl::InvalidArgumentError(why);
  }
  const std::string id = CanonicalPresetId(name);
  const std::string* text = PresetTextFor(id);
  if (text == nullptr) {
    std::vector<std::string> ids;
    for (const PresetInfo& p : Presets()) {
      ids.push_back(p.aliases.empty() ? p.id
                                      : absl::StrCat(p.id, " (alias ", absl::StrJoin(p.aliases, ", "), ")"));
    }
    // Print the name escaped: it may be anything a caller sent.
    problems->push_back({"", absl::StrCat("unknown ruleset \"", absl::CHexEscape(name),
                                          "\"; the presets are: ", absl::StrJoin(ids, ", "))});
    return absl::NotFoundError(problems->back().message);
  }
  std::vector<FieldProblem> preset_problems;
  auto base = ResolveTextImpl(*text, depth, &preset_problems, absl::StrCat("preset ", id, ": "));
  if (!base.ok()) {
    problems->insert(problems->end(), preset_problems.begin(), preset_problems.end());
    return base.status();
  }
  v1::Ruleset result = *std::move(base);
  if (!has_args) return result;

  const size_t before = problems->size();
  std::set<std::string> given;
  bool retitled = false;
  for (const std::string& assignment : SplitOverrides(args)) {
    absl::string_view a = absl::StripAsciiWhitespace(assignment);
    if (a.empty()) continue;
    const size_t eq = a.find('=');
    if (eq == absl::string_view::npos) {
      problems->push_back({std::string(a), absl::StrCat("override \"", a, "\" is not key=value")});
      continue;
    }
    const std::string key(absl::StripAsciiWhitespace(a.substr(0, eq)));
    const absl::string_view value = a.substr(eq + 1);
    std::vector<std::string> parts;
    const pb::FieldDescriptor* f = FindKey(key, &parts);
    if (f != nullptr && f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      std::vector<std::string> subkeys;
      for (int i = 0; i < f->message_type()->field_count(); ++i) {
        subkeys.push_back(absl::StrCat(key, ".", f->message_type()->field(i)->name()));
      }
      problems->push_back({key, absl::StrCat("\"", key, "\" is a group of keys: set ",
                                             absl::StrJoin(subkeys, " or "))});
      continue;
    }
    if (f == nullptr || key == "base") {
      problems->push_back({key, absl::StrCat("unknown key \"", absl::CHexEscape(key),
                                             "\" (see docs/rulesets.md for every key)")});
      continue;
    }
    if (!given.insert(key).second) {
      problems->push_back({key, absl::StrCat(key, " is given twice")});
      continue;
    }
    if (!IsSimpleOverrideValue(value)) {
      problems->push_back({key, absl::StrCat("\"", absl::CHexEscape(value), "\" is not one value: write a number, "
                                             "a word, a \"quoted string\" or a [list, of, them]")});
      continue;
    }
    retitled = retitled || key == "title";
    std::string text_form = absl::StrCat(parts.back(), ": ", OverrideValueText(f, value));
    for (size_t i = parts.size() - 1; i-- > 0;) {
      text_form = absl::StrCat(parts[i], " { ", text_form, " }");
    }
    v1::Ruleset parsed;
    TextFormat::ParseInfoTree tree;
    std::vector<FieldProblem> parse_problems;
    if (!ParseRulesetText(text_form, &parsed, &tree, &parse_problems, key, "")) {
      problems->push_back({key, absl::StrCat("cannot read \"", absl::CHexEscape(value),
                                             "\" as the value of ", key)});
      continue;
    }
    MergeRulesetText(parsed, tree, &result);
  }
  result.set_id(std::string(ref));
  if (!retitled) result.set_title(absl::StrCat(result.title(), ", modified"));
  FillDefaults(&result);
  // List the problems of the overrides that did read too, not just the
  // first kind found.
  std::vector<FieldProblem> found = CheckRuleset(result);
  if (!found.empty() || problems->size() > before) {
    problems->insert(problems->end(), found.begin(), found.end());
    return absl::InvalidArgumentError("the ruleset is not playable");
  }
  SortIndexLists(&result);
  return result;
}

std::string JoinProblems(const std::vector<FieldProblem>& problems) {
  std::vector<std::string> lines;
  for (const FieldProblem& p : problems) {
    lines.push_back(p.field.empty() ? p.message : absl::StrCat(p.field, ": ", p.message));
  }
  return absl::StrJoin(lines, "\n");
}

// Wraps a resolution so that the returned status carries every problem.
template <typename Fn>
absl::StatusOr<v1::Ruleset> WithProblems(Fn fn, std::vector<FieldProblem>* problems) {
  std::vector<FieldProblem> local;
  auto r = fn(&local);
  if (problems != nullptr) *problems = local;
  if (r.ok()) return r;
  if (local.empty()) return r.status();
  return absl::Status(r.status().code(), JoinProblems(local));
}

void CheckIndexList(const google::protobuf::RepeatedField<int32_t>& list, absl::string_view field,
                    int lo, int hi, std::vector<FieldProblem>* out) {
  std::set<int> seen;
  for (int k = 0; k < list.size(); ++k) {
    const int v = list[k];
    const std::string where = absl::StrCat(field, "[", k, "]");
    if (v < lo || v > hi) {
      out->push_back({where, absl::StrCat(v, " is out of range: a path index from ", lo, " to ", hi)});
    } else if (!seen.insert(v).second) {
      out->push_back({where, absl::StrCat(v, " is listed twice")});
    }
  }
}

void CheckPath(const v1::Ruleset& r, const google::protobuf::RepeatedPtrField<std::string>& path,
               absl::string_view field, std::vector<FieldProblem>* out) {
  std::optional<TileId> prev;
  for (int i = 0; i < path.size(); ++i) {
    const std::string where = absl::StrCat(field, "[", i, "]");
    const auto tile = ParseTileName(path[i]);
    if (!tile || !OnBoard(r.board(), *tile)) {
      out->push_back({where, absl::StrCat("\"", absl::CHexEscape(path[i]), "\" is not a tile of the ",
                                          BoardName(r.board()), " board")});
      prev.reset();
      continue;
    }
    if (prev && !Adjacent(*prev, *tile)) {
      out->push_back({where, absl::StrCat(TileName(*tile), " does not touch ", TileName(*prev),
                                          ": a path steps only to a neighbouring tile")});
    }
    prev = tile;
  }
}

}  // namespace

const std::vector<PresetInfo>& Presets() {
  static const std::vector<PresetInfo>* kPresets = [] {
    auto* presets = new std::vector<PresetInfo>;
    for (const PresetEntry& e : PresetOrder()) {
      std::vector<FieldProblem> problems;
      auto r = ResolveTextImpl(*PresetTextFor(e.id), 0, &problems, "");
      assert(r.ok() && "every shipped preset resolves (tested)");
      presets->push_back({e.id, e.aliases, r.ok() ? r->title() : "", r.ok() ? r->source() : ""});
    }
    return presets;
  }();
  return *kPresets;
}

const char* DeclinedRulesetReason(absl::string_view name) {
  if (name == "tablet-betting" || name == "babylonian-tablet" || name == "tablet") {
    return "the Babylonian tablet's betting game (BM 33333B: five bird pieces, astragals, "
           "entry throws 2, 5, 6, 7 and 10, bets on the rosettes) is not a complete ruleset: "
           "no source gives its route, capture, safety or bearing off, so Scribe declines to "
           "guess. For the tablet's five pieces on Sawah rules use \"sawah-tablet\" (alias "
           "\"aseb\").";
  }
  return nullptr;
}

std::vector<FieldProblem> CheckRuleset(const v1::Ruleset& r) {
  std::vector<FieldProblem> out;
  if (r.board() != v1::BOARD_UR && r.board() != v1::BOARD_EGYPTIAN) {
    out.push_back({"board", "must be BOARD_UR or BOARD_EGYPTIAN"});
    return out;
  }
  const int len = r.path_size();
  if (len < 1 || len > kMaxPathLength) {
    out.push_back({"path", absl::StrCat("has ", len, " squares; a path has 1 to ", kMaxPathLength)});
  }
  CheckPath(r, r.path(), "path", &out);
  bool mirrored = r.dark_path_size() == len;
  for (int i = 0; mirrored && i < len; ++i) {
    const auto light = ParseTileName(r.path(i));
    mirrored = light && r.dark_path(i) == TileName(MirrorTile(*light));
  }
  if (r.dark_path_size() != len) {
    out.push_back({"dark_path", absl::StrCat("has ", r.dark_path_size(),
                                             " squares but light's path has ", len)});
  }
  // A mirrored dark path has the light path's problems; say them once.
  if (!mirrored) CheckPath(r, r.dark_path(), "dark_path", &out);
  const bool tiles_ok = out.empty();
  if (r.pieces() < 1 || r.pieces() > kMaxPieces) {
    out.push_back({"pieces", absl::StrCat(r.pieces(), " is out of range: 1 to ", kMaxPieces)});
  }
  const v1::Dice& dice = r.dice();
  uint32_t rolls = 0;
  bool dice_ok = false;
  if (dice.count() < 1 || dice.count() > kMaxDice) {
    out.push_back({"dice.count", absl::StrCat(dice.count(), " is out of range: 1 to ", kMaxDice)});
  } else if (dice.roll_for_marks_size() != dice.count() + 1) {
    out.push_back({"dice.roll_for_marks",
                   absl::StrCat("has ", dice.roll_for_marks_size(), " entries; ", dice.count(),
                                " dice need ", dice.count() + 1, " (one for 0 to ", dice.count(),
                                " marks)")});
  } else {
    for (int k = 0; k < dice.roll_for_marks_size(); ++k) {
      const int v = dice.roll_for_marks(k);
      if (v < 0 || v > kMaxRoll) {
        out.push_back({absl::StrCat("dice.roll_for_marks[", k, "]"),
                       absl::StrCat(v, " is out of range: a throw is 0 to ", kMaxRoll)});
      } else {
        rolls |= 1u << v;
      }
    }
    dice_ok = rolls != 0;
    if ((rolls & ~1u) == 0) {
      out.push_back({"dice.roll_for_marks", "no throw ever moves a piece"});
      dice_ok = false;
    }
  }
  const bool path_ok = len >= 1 && len <= kMaxPathLength;
  if (!path_ok) return out;  // the index checks below need a path length

  int max_roll = 0;
  for (int v : dice.roll_for_marks()) max_roll = std::max(max_roll, v);
  if (dice_ok && max_roll > len) {
    out.push_back({"path", absl::StrCat("has ", len, " squares, fewer than the largest throw (",
                                        max_roll, ")")});
  }
  CheckIndexList(r.extra_roll_squares(), "extra_roll_squares", 1, len, &out);
  CheckIndexList(r.safe_squares(), "safe_squares", 1, len, &out);
  CheckIndexList(r.auto_place_squares(), "auto_place_squares", 1, len, &out);
  CheckIndexList(r.phase_starts(), "phase_starts", 2, len, &out);
  for (int k = 0; dice_ok && k < r.entry_rolls_size(); ++k) {
    const int v = r.entry_rolls(k);
    if (v <= 0 || v > kMaxRoll || !((rolls >> v) & 1u)) {
      out.push_back({absl::StrCat("entry_rolls[", k, "]"),
                     absl::StrCat(v, " is not a non-zero throw these dice can give")});
    }
  }
  if (r.auto_place_to() < 1 || r.auto_place_to() > len) {
    out.push_back({"auto_place_to", absl::StrCat(r.auto_place_to(),
                                                 " is out of range: a path index from 1 to ", len)});
  }
  if (r.bear_off() == v1::BEAR_OFF_STACK_FROM_LAST) {
    const int v = r.bear_off_roll();
    if (dice_ok && (v <= 0 || v > kMaxRoll || !((rolls >> v) & 1u))) {
      out.push_back({"bear_off_roll", absl::StrCat(v, " is not a non-zero throw these dice can give")});
    }
  } else if (r.bear_off() == v1::BEAR_OFF_EXACT) {
    if (r.bear_off_roll() != 0) {
      out.push_back({"bear_off_roll", "must be 0 (unset) with bear_off: BEAR_OFF_EXACT; it is the throw "
                                      "that bears off with BEAR_OFF_STACK_FROM_LAST"});
    }
  } else {
    out.push_back({"bear_off", "must be BEAR_OFF_EXACT or BEAR_OFF_STACK_FROM_LAST"});
  }
  if (r.opening() != v1::OPENING_AGREED && r.opening() != v1::OPENING_THROW_OFF) {
    out.push_back({"opening", "must be OPENING_AGREED or OPENING_THROW_OFF"});
  }
  // The contradiction check builds the tables, which needs every part sound.
  if (!out.empty() || !tiles_ok || !dice_ok) return out;

  // Contradictions: one square that is safe for one piece and not for
  // another would make "can this piece be captured" depend on who asks.
  const Rules probe(r, "");
  std::set<int> reported_tiles;  // one problem per tile, not per pair of indices
  auto contradiction = [&](Side s, int i, Side t, int j) {
    if (!reported_tiles.insert(probe.tile[s][i]).second) return;
    out.push_back({"safe_squares",
                   absl::StrCat("tile ", probe.TileNameAt(s, i), " is index ", i, " of ",
                                SideName(s), "'s path and index ", j, " of ", SideName(t),
                                "'s path, but only one of them is safe")});
  };
  for (int i = 1; i <= len; ++i) {
    for (int j = 1; j <= len; ++j) {
      if (probe.IsSafe(i) == probe.IsSafe(j)) continue;
      if ((probe.opp_overlap[kLight][i] >> j) & 1u) contradiction(kLight, i, kDark, j);
      for (Side s : {kLight, kDark}) {
        if (j > i && ((probe.own_overlap[s][i] >> j) & 1u)) contradiction(s, i, s, j);
      }
    }
  }
  return out;
}

v1::Ruleset CanonicalRuleset(const v1::Ruleset& resolved) {
  v1::Ruleset c = resolved;
  c.clear_id();
  c.clear_title();
  c.clear_source();
  c.clear_base();
  SortIndexLists(&c);
  return c;
}

std::string RulesetDigest(const v1::Ruleset& resolved) {
  std::string bytes;
  {
    pb::io::StringOutputStream raw(&bytes);
    pb::io::CodedOutputStream coded(&raw);
    coded.SetSerializationDeterministic(true);
    CanonicalRuleset(resolved).SerializeToCodedStream(&coded);
  }
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int md_len = 0;
  EVP_Digest(bytes.data(), bytes.size(), md, &md_len, EVP_sha256(), nullptr);
  return absl::BytesToHexString(
      absl::string_view(reinterpret_cast<const char*>(md), std::min(md_len, 8u)));
}

absl::StatusOr<v1::Ruleset> ResolveReference(absl::string_view reference,
                                             std::vector<FieldProblem>* problems) {
  return WithProblems(
      [&](std::vector<FieldProblem>* p) { return ResolveReferenceImpl(reference, 0, p); }, problems);
}

absl::StatusOr<v1::Ruleset> ResolveText(absl::string_view text, std::vector<FieldProblem>* problems) {
  return WithProblems(
      [&](std::vector<FieldProblem>* p) { return ResolveTextImpl(text, 0, p, ""); }, problems);
}

namespace {

std::shared_ptr<const Rules> MakeRules(const v1::Ruleset& resolved) {
  return std::make_shared<const Rules>(resolved, RulesetDigest(resolved));
}

// Resolved rules by reference or text; a service validating many records
// under one ruleset builds the tables once.
class RulesCache {
 public:
  template <typename Fn>
  absl::StatusOr<std::shared_ptr<const Rules>> Get(const std::string& key, Fn resolve,
                                                   std::vector<FieldProblem>* problems) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (auto it = cache_.find(key); it != cache_.end()) {
        if (problems) problems->clear();
        return it->second;
      }
    }
    SCRIBE_ASSIGN_OR_RETURN(const v1::Ruleset resolved, resolve(problems));
    auto rules = MakeRules(resolved);
    std::lock_guard<std::mutex> lock(mu_);
    if (cache_.size() >= kMaxEntries) cache_.clear();
    cache_.emplace(key, rules);
    return rules;
  }

 private:
  static constexpr size_t kMaxEntries = 1024;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<const Rules>> cache_;
};

RulesCache& Cache() {
  static RulesCache* cache = new RulesCache;
  return *cache;
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Rules>> LoadRuleset(absl::string_view reference,
                                                         std::vector<FieldProblem>* problems) {
  return Cache().Get(
      absl::StrCat("ref:", reference),
      [&](std::vector<FieldProblem>* p) { return ResolveReference(reference, p); }, problems);
}

absl::StatusOr<std::shared_ptr<const Rules>> LoadRulesetText(absl::string_view text,
                                                             std::vector<FieldProblem>* problems) {
  return Cache().Get(
      absl::StrCat("text:", text),
      [&](std::vector<FieldProblem>* p) { return ResolveText(text, p); }, problems);
}

namespace {

// A string as a text-format literal: quotes, backslashes and control
// characters escaped, UTF-8 kept readable.
std::string Quote(absl::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (u < 0x20 || u == 0x7f) {
      absl::StrAppend(&out, "\\", (u >> 6) & 7, (u >> 3) & 7, u & 7);
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

void AppendFieldText(const pb::Message& m, const pb::FieldDescriptor* f, const std::string& indent,
                     std::string* out) {
  const pb::Reflection* r = m.GetReflection();
  if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
    absl::StrAppend(out, indent, f->name(), " {\n");
    const pb::Message& sub = r->GetMessage(m, f);
    for (int i = 0; i < sub.GetDescriptor()->field_count(); ++i) {
      AppendFieldText(sub, sub.GetDescriptor()->field(i), indent + "  ", out);
    }
    absl::StrAppend(out, indent, "}\n");
    return;
  }
  if (f->is_repeated()) {
    std::vector<std::string> items;
    for (int k = 0; k < r->FieldSize(m, f); ++k) {
      if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_STRING) {
        items.push_back(Quote(r->GetRepeatedString(m, f, k)));
      } else {
        items.push_back(absl::StrCat(r->GetRepeatedInt32(m, f, k)));
      }
    }
    absl::StrAppend(out, indent, f->name(), ": [", absl::StrJoin(items, ", "), "]\n");
    return;
  }
  std::string value;
  switch (f->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_STRING:
      value = Quote(r->GetString(m, f));
      break;
    case pb::FieldDescriptor::CPPTYPE_INT32:
      value = absl::StrCat(r->GetInt32(m, f));
      break;
    case pb::FieldDescriptor::CPPTYPE_BOOL:
      value = r->GetBool(m, f) ? "true" : "false";
      break;
    case pb::FieldDescriptor::CPPTYPE_ENUM:
      value = r->GetEnum(m, f)->name();
      break;
    default:
      break;
  }
  absl::StrAppend(out, indent, f->name(), ": ", value, "\n");
}

}  // namespace

std::string RulesetName(const Rules& rules) {
  return rules.ruleset.id().empty() ? std::string("custom rules") : rules.ruleset.id();
}

std::string RulesetReference(const Rules& rules, absl::string_view reference) {
  return rules.ruleset.id().empty() ? std::string(reference) : rules.ruleset.id();
}

std::string RulesetToText(const v1::Ruleset& resolved) {
  std::string out;
  const pb::Descriptor* d = resolved.GetDescriptor();
  for (int i = 0; i < d->field_count(); ++i) {
    const pb::FieldDescriptor* f = d->field(i);
    if (f->name() == "base") continue;
    AppendFieldText(resolved, f, "", &out);
  }
  return out;
}

}  // namespace scribe
