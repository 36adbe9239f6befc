// The game database backends the storage and games suites run against,
// each able to hand out a fresh, empty database. A backend is one entry
// of TestBackends() (test_backends.cc).
#ifndef SCRIBE_TESTS_STORAGE_TEST_BACKENDS_H_
#define SCRIBE_TESTS_STORAGE_TEST_BACKENDS_H_

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace scribe::storage {

struct TestBackend {
  std::string name;  // a GoogleTest parameter name: letters, digits, _
  // A location for OpenStore (storage/open_store.h) where no database is
  // yet: a new one each call.
  std::function<std::string()> make_location;
};

std::vector<TestBackend> TestBackends();

// For GoogleTest: a backend is shown by its name.
inline void PrintTo(const TestBackend& backend, std::ostream* out) { *out << backend.name; }

}  // namespace scribe::storage

#endif  // SCRIBE_TESTS_STORAGE_TEST_BACKENDS_H_
