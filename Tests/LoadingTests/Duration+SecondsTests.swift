import Testing

@testable import Loading

@Suite
struct DurationSecondsTests {
  @Test(arguments: [
    (Duration.zero, 0.0),
    (.seconds(3), 3),
    (.milliseconds(1500), 1.5),
    (.microseconds(-250), -0.00025),
  ])
  func convertsToFractionalSeconds(duration: Duration, seconds: Double) {
    #expect(abs(duration.secondsValue - seconds) < 1e-12)
  }
}
