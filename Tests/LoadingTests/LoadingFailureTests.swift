import Foundation
import Loading
import Testing

@Suite
struct LoadingFailureTests {
  private struct PlainError: Error, Equatable {
    let code: Int
  }

  @Test func failuresFromEqualErrorsAreDistinct() {
    let first = LoadingFailure(FakeError.offline)
    let second = LoadingFailure(FakeError.offline)
    #expect(first != second)
    #expect(Set([first, second]).count == 2)
  }

  @Test func aCopyEqualsTheOriginalAndHashesAlike() {
    let failure = LoadingFailure(FakeError.timedOut)
    let copy = failure
    #expect(copy == failure)
    #expect(copy.hashValue == failure.hashValue)
    #expect(Set([failure, copy]).count == 1)
  }

  @Test func exposesTheWrappedError() {
    let failure = LoadingFailure(PlainError(code: 7))
    #expect(failure.error as? PlainError == PlainError(code: 7))
  }

  @Test func messagePrefersTheLocalizedDescription() {
    let failure = LoadingFailure(FakeError.offline)
    #expect(failure.message == "The fake server is offline")
    #expect(failure.errorDescription == "The fake server is offline")
    #expect(failure.description == "The fake server is offline")
  }

  @Test func messageFallsBackToTheErrorsDescription() {
    #expect(LoadingFailure(PlainError(code: 7)).message == "PlainError(code: 7)")
  }

  @Test func wrappingAFailureKeepsItsIdentity() {
    let failure = LoadingFailure(FakeError.offline)
    let rewrapped = LoadingFailure(failure)
    #expect(rewrapped == failure)
    #expect(rewrapped.error as? FakeError == .offline)
  }

  @Test func canBeThrownAndCaught() {
    let failure = LoadingFailure(FakeError.timedOut)
    #expect(throws: failure) { throw failure }
  }
}
