// fake_openai: a loopback OpenAI-compatible server with deterministic answers, for demos and
// shell tests. /v1/embeddings gives each text a fixed unit vector; /v1/chat/completions gives a
// fixed {"verdict": 0|1, "rationale": ...} per prompt (honouring n and logprobs).
//
//   fake_openai [--port N] [--port-file FILE] [--dimensions D]
//
// Listens on 127.0.0.1 (port 0: an ephemeral one), prints its base URL on stdout, writes the port
// to FILE when asked, and serves until SIGINT or SIGTERM.

#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include "fake_openai_server.hpp"
#include "openai_replies.hpp"

int main(int argc, char** argv) {
  int port = 0;
  int dimensions = 8;
  std::string port_file;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--port" && has_value) {
      port = std::atoi(argv[++i]);
    } else if (arg == "--port-file" && has_value) {
      port_file = argv[++i];
    } else if (arg == "--dimensions" && has_value) {
      dimensions = std::atoi(argv[++i]);
    } else {
      std::cerr << "usage: fake_openai [--port N] [--port-file FILE] [--dimensions D]\n";
      return 2;
    }
  }
  if (dimensions < 1) {
    std::cerr << "fake_openai: --dimensions must be >= 1\n";
    return 2;
  }

  // Block the stop signals before any thread starts, then wait for one of them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  try {
    sqlmorph::test::fake_openai_server server(
        sqlmorph::test::openai_replies::deterministic_handler(dimensions), port);
    if (!port_file.empty()) {
      const std::string tmp = port_file + ".tmp";
      std::ofstream(tmp) << server.port() << "\n";
      std::rename(tmp.c_str(), port_file.c_str());  // readers never see a half-written file
    }
    std::cout << server.base_url() << std::endl;
    int signal_number = 0;
    sigwait(&stop_signals, &signal_number);
    server.stop();
    std::cerr << "fake_openai: " << server.request_count() << " requests served\n";
  } catch (const std::exception& e) {
    std::cerr << "fake_openai: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
