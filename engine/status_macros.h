// Small helpers for absl::Status plumbing. Debian's Abseil (20220623) has no
// RETURN_IF_ERROR / ASSIGN_OR_RETURN macros, so we carry our own.
#ifndef SCRIBE_ENGINE_STATUS_MACROS_H_
#define SCRIBE_ENGINE_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define SCRIBE_RETURN_IF_ERROR(expr)             \
  do {                                           \
    const ::absl::Status scribe_status_ = (expr); \
    if (!scribe_status_.ok()) return scribe_status_; \
  } while (0)

#define SCRIBE_CONCAT_INNER_(a, b) a##b
#define SCRIBE_CONCAT_(a, b) SCRIBE_CONCAT_INNER_(a, b)
#define SCRIBE_ASSIGN_OR_RETURN(lhs, expr) \
  SCRIBE_ASSIGN_OR_RETURN_IMPL_(SCRIBE_CONCAT_(scribe_statusor_, __LINE__), lhs, expr)
#define SCRIBE_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                  \
  if (!tmp.ok()) return tmp.status();                 \
  lhs = std::move(tmp).value()

#endif  // SCRIBE_ENGINE_STATUS_MACROS_H_
