// pg_cut_proxy SERVER_PORT after|before: the proxy of cut_proxy.h as a
// program, for end-to-end tests of the CLI. Forwards a free port of
// 127.0.0.1 to 127.0.0.1:SERVER_PORT and cuts the first COMMIT that passes
// ("after": once the server answered it; "before": before the server has
// it). Prints its port on a line, then serves until SIGTERM or SIGINT.
#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "tests/storage/cut_proxy.h"

int main(int argc, char** argv) {
  using scribe::testing::CutProxy;
  if (argc != 3 || (std::strcmp(argv[2], "after") != 0 && std::strcmp(argv[2], "before") != 0)) {
    std::cerr << "usage: pg_cut_proxy SERVER_PORT after|before\n";
    return 2;
  }
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);  // before the proxy's thread starts
  auto proxy = CutProxy::Start(std::atoi(argv[1]));
  if (!proxy.ok()) {
    std::cerr << "pg_cut_proxy: " << proxy.status().message() << "\n";
    return 1;
  }
  (*proxy)->Arm(std::strcmp(argv[2], "after") == 0 ? CutProxy::Cut::kAfterTheServerAnswered
                                                   : CutProxy::Cut::kBeforeTheServerHasIt);
  std::cout << (*proxy)->port() << std::endl;
  int signal = 0;
  sigwait(&stop, &signal);
  std::cerr << "pg_cut_proxy: " << (*proxy)->cuts() << " COMMIT cut\n";
  return 0;
}
