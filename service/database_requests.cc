#include "service/database_requests.h"

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

namespace scribe::service {
namespace {

// What a page token is bound to: the request's filter and order (not its
// page), FNV-1a 64 over their deterministic bytes.
uint64_t QueryPrint(const v1::ListGamesRequest& request) {
  v1::ListGamesRequest query = request;
  query.clear_page_size();
  query.clear_page_token();
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream out(&bytes);
    google::protobuf::io::CodedOutputStream coded(&out);
    coded.SetSerializationDeterministic(true);
    query.SerializeToCodedStream(&coded);
  }
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

bool IsIsoDatePrefix(const std::string& date) {
  // "2026", "2026-03", "2026-03-01": digits and dashes, as stored dates
  // are compared as text.
  if (date.size() > 10) return false;
  for (char c : date) {
    if (!(c >= '0' && c <= '9') && c != '-') return false;
  }
  return true;
}

}  // namespace

void CheckName(const std::string& value, const std::string& field, std::vector<FieldViolation>* violations) {
  if (value.size() > kMaxNameBytes) {
    violations->push_back({field, absl::StrCat("longer than ", kMaxNameBytes, " bytes (", value.size(), ")")});
  } else if (value.find('\0') != std::string::npos) {
    violations->push_back({field, "holds a NUL byte, which no record's tag holds"});
  }
}

void ReadFilter(const v1::GameFilter& filter, games::GameQuery* query, std::vector<FieldViolation>* violations) {
  CheckName(filter.player(), "filter.player", violations);
  CheckName(filter.light(), "filter.light", violations);
  CheckName(filter.dark(), "filter.dark", violations);
  CheckName(filter.event(), "filter.event", violations);
  query->player = filter.player();
  query->light = filter.light();
  query->dark = filter.dark();
  query->event = filter.event();
  for (const auto& [value, field] : {std::pair{&filter.date_from(), "filter.date_from"},
                                     std::pair{&filter.date_to(), "filter.date_to"}}) {
    if (!IsIsoDatePrefix(*value)) {
      violations->push_back({field, "not an ISO date (\"2026-03-01\", or a prefix: \"2026-03\")"});
    }
  }
  query->date_from = filter.date_from();
  query->date_to = filter.date_to();
  if (filter.unfinished() && filter.winner() != v1::PLAYER_UNSPECIFIED) {
    violations->push_back({"filter.unfinished", "an unfinished game has no winner: give one of the two"});
  }
  switch (filter.winner()) {
    case v1::PLAYER_UNSPECIFIED:
      if (filter.unfinished()) query->result = 0;
      break;
    case v1::LIGHT:
      query->result = 1;
      break;
    case v1::DARK:
      query->result = 2;
      break;
    default:
      violations->push_back({"filter.winner", "not LIGHT, DARK or PLAYER_UNSPECIFIED"});
  }
}

GamesPage ReadGamesPage(const v1::ListGamesRequest& request, std::vector<FieldViolation>* violations) {
  GamesPage page;
  if (request.page_size() < 0) {
    violations->push_back({"page_size", "negative"});
  } else if (request.page_size() > kMaxGamesPage) {
    violations->push_back({"page_size", absl::StrCat("at most ", kMaxGamesPage)});
  } else if (request.page_size() > 0) {
    page.size = request.page_size();
  }
  if (request.page_token().empty()) return page;
  std::string token;
  std::vector<std::string> parts;
  if (absl::WebSafeBase64Unescape(request.page_token(), &token)) parts = absl::StrSplit(token, '|');
  int64_t offset = 0;
  uint64_t print = 0;
  if (parts.size() != 3 || parts[0] != "g1" || !absl::SimpleAtoi(parts[1], &offset) || offset < 0 ||
      offset > kMaxGamesOffset || !absl::SimpleHexAtoi(parts[2], &print)) {
    violations->push_back({"page_token", "not a page token this server gave"});
  } else if (print != QueryPrint(request)) {
    violations->push_back({"page_token", "given for another filter or order: start again without a token"});
  } else {
    page.offset = offset;
  }
  return page;
}

std::string GamesPageToken(const v1::ListGamesRequest& request, int64_t offset) {
  return absl::WebSafeBase64Escape(absl::StrCat("g1|", offset, "|", absl::Hex(QueryPrint(request))));
}

}  // namespace scribe::service
