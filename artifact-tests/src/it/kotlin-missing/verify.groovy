// The build failed (invoker.properties); it must have failed for the right reason, on each method
// that cannot be protected and on no other.
def log = new File(basedir, 'build.log').text
def expected = [
    '[brace:kotlin-missing] Items.item is a Kotlin suspend function, which Brace protects only with dev.brace:brace-kotlin on the class path',
    '[brace:kotlin-missing] Items.items returns kotlinx.coroutines.flow.Flow<java.lang.String>, which Brace protects only with dev.brace:brace-kotlin on the class path',
]
expected.each { message ->
    assert log.contains(message): "the kapt build's log lacks: ${message}"
}
assert !log.contains('Items.name'): 'the plain method was refused too'
assert !new File(basedir, 'target/generated-sources/kapt/compile/example/ResilientItems.java').exists():
    'a wrapper was generated for an interface whose methods it cannot protect'
return true
