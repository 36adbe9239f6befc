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

// The order of docs/rulesets.md's presets (#the-presets).
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

// One override of a ruleset reference ("key=value") applied to *result:
// a key it cannot apply is a problem in *problems, and the rest go on.
// `given` holds the keys set so far; *retitled says whether "title" was.
void ApplyOverride(absl::string_view assignment, std::set<std::string>* given, bool* retitled,
                   v1::Ruleset* result, std::vector<FieldProblem>* problems) {
  absl::string_view a = absl::StripAsciiWhitespace(assignment);
  if (a.empty()) return;
  const size_t eq = a.find('=');
  if (eq == absl::string_view::npos) {
    problems->push_back({std::string(a), absl::StrCat("override \"", a, "\" is not key=value")});
    return;
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
    return;
  }
  if (f == nullptr || key == "base") {
    problems->push_back({key, absl::StrCat("unknown key \"", absl::CHexEscape(key),
                                           "\" (see docs/rulesets.md for every key)")});
    return;
  }
  if (!given->insert(key).second) {
    problems->push_back({key, absl::StrCat(key, " is given twice")});
    return;
  }
  if (!IsSimpleOverrideValue(value)) {
    problems->push_back({key, absl::StrCat("\"", absl::CHexEscape(value), "\" is not one value: write a number, "
                                           "a word, a \"quoted string\" or a [list, of, them]")});
    return;
  }
  *retitled = *retitled || key == "title";
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
    return;
  }
  MergeRulesetText(parsed, tree, result);
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
    ApplyOverride(assignment, &given, &retitled, &result, problems);
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

std::string RulesetName(const Rules& rules) {
  return rules.ruleset.id().empty() ? std::string("custom rules") : rules.ruleset.id();
}

std::string RulesetReference(const Rules& rules, absl::string_view reference) {
  return rules.ruleset.id().empty() ? std::string(reference) : rules.ruleset.id();
}

}  // namespace scribe
