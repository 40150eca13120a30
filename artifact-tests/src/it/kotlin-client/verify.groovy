// The kapt build generated the wrapper, and the module's own test shows both methods retried.
def log = new File(basedir, 'build.log').text
assert new File(basedir, 'target/generated-sources/kapt/compile/example/ResilientItems.java').exists():
    'kapt generated no ResilientItems'
assert log.contains('Tests run: 2, Failures: 0, Errors: 0, Skipped: 0'): "the client's tests did not all pass"
return true
