// A shared library that is not a sqlmorph plugin: it lacks the manifest function.
extern "C" __attribute__((visibility("default"))) int some_other_function() {
  return 42;
}
