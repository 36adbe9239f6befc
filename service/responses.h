// Pieces of responses the handlers build from the libraries' results.
#ifndef SCRIBE_SERVICE_RESPONSES_H_
#define SCRIBE_SERVICE_RESPONSES_H_

#include <utility>
#include <vector>

#include "engine/ruleset.h"
#include "engine/types.h"
#include "scribe/v1/scribe_service.pb.h"
#include "service/errors.h"

namespace scribe::service {

v1::Move ToProtoMove(const Move& m);

// A preset as ListRulesets lists it, with its digest.
v1::RulesetSummary ToSummary(const PresetInfo& preset);

// A report's verdict and findings, moved into a validate response.
template <typename Response>
void SetReport(v1::FileReport report, Response* response) {
  response->set_valid(report.valid());
  for (v1::Finding& f : *report.mutable_findings()) *response->add_findings() = std::move(f);
}

// The one result a stream's unusable request still gets: not valid, its
// violations as "bad-request" findings ("field: description"), capped as
// a status's are (CapViolations).
void SetBadRequest(const std::vector<FieldViolation>& violations, v1::ValidateRecordsResponse* response);

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_RESPONSES_H_
