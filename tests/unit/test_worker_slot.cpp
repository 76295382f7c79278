// worker_slot: a small number per worker thread, the lowest free one, kept while the thread holds a
// slot (the postgres backend's login role per worker, the SQLite backend's heap budget).

#include <doctest/doctest.h>

#include <optional>
#include <thread>

#include <sqlmorph/worker_slot.hpp>

using sqlmorph::worker_slot;

TEST_CASE("worker_slot: one number per thread, the lowest free, kept while the thread holds a slot") {
  REQUIRE(worker_slot::threads_holding() == 0);
  std::optional<worker_slot> first(std::in_place);
  const worker_slot second;  // the same thread: the same number
  CHECK(first->number() == 1);
  CHECK(second.number() == 1);
  CHECK(worker_slot::threads_holding() == 1);

  int other = 0;
  int holding = 0;
  std::thread([&] {
    const worker_slot s;
    other = s.number();
    holding = worker_slot::threads_holding();
  }).join();
  CHECK(other == 2);
  CHECK(holding == 2);
  CHECK(worker_slot::threads_holding() == 1);  // the other thread let its number go

  first.reset();
  CHECK(second.number() == 1);  // still held by the second slot
  std::thread([&] { other = worker_slot().number(); }).join();
  CHECK(other == 2);
}

TEST_CASE("worker_slot: a number freed by a thread goes to the next thread that asks") {
  std::optional<worker_slot> mine(std::in_place);
  REQUIRE(mine->number() == 1);
  mine.reset();
  CHECK(worker_slot::threads_holding() == 0);
  int number = 0;
  std::thread([&] { number = worker_slot().number(); }).join();
  CHECK(number == 1);
}
