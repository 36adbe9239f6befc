#include "service/responses.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "records/finding_codes.h"

namespace scribe::service {

v1::Move ToProtoMove(const Move& m) {
  v1::Move out;
  out.set_from(m.from);
  out.set_to(m.to);
  return out;
}

v1::RulesetSummary ToSummary(const PresetInfo& preset) {
  v1::RulesetSummary s;
  s.set_id(preset.id);
  for (const std::string& a : preset.aliases) s.add_aliases(a);
  s.set_title(preset.title);
  s.set_source(preset.source);
  auto rules = LoadRuleset(preset.id);
  if (rules.ok()) s.set_digest((*rules)->digest);
  return s;
}

void SetBadRequest(const std::vector<FieldViolation>& violations, v1::ValidateRecordsResponse* response) {
  response->set_valid(false);
  for (const FieldViolation& v : CapViolations(violations)) {
    v1::Finding* f = response->add_findings();
    f->set_code(std::string(codes::kBadRequest));
    f->set_message(v.field.empty() ? v.description : absl::StrCat(v.field, ": ", v.description));
  }
}

}  // namespace scribe::service
