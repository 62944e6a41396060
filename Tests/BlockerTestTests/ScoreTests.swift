import BlockerTest
import Foundation
import Testing

@Suite("Scores")
struct ScoreTests {
  @Test("blocked ÷ (blocked + reachable); inconclusive beside it, never counted as blocked")
  func formula() {
    let score = Score([.blocked, .blocked, .reachable, .inconclusive, .inconclusive])
    #expect(score.percent.map { ($0 * 100).rounded() / 100 } == 66.67)
    #expect(score.inconclusive == 2 && score.total == 5)
    #expect(score.summary == "67 % (strong), 2 inconclusive")
    #expect(Score(blocked: 0, reachable: 0, inconclusive: 3).percent == nil)
    #expect(Score(blocked: 0, reachable: 0, inconclusive: 3).rating == .unknown)
  }

  @Test(
    "Thresholds: strong ≥ 60, moderate ≥ 30, weak below",
    arguments: [
      (60, 40, Score.Rating.strong), (59, 41, .moderate), (30, 70, .moderate), (29, 71, .weak), (0, 1, .weak),
    ])
  func thresholds(blocked: Int, reachable: Int, rating: Score.Rating) {
    #expect(Score(blocked: blocked, reachable: reachable).rating == rating)
  }

  @Test("JSON carries the counts, the rounded percent and the rating, and reads back")
  func json() throws {
    let data = try JSONEncoder().encode(Score(blocked: 2, reachable: 1, inconclusive: 4))
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    #expect(object?["percent"] as? Double == 66.7)
    #expect(object?["rating"] as? String == "strong")
    #expect(try JSONDecoder().decode(Score.self, from: data) == Score(blocked: 2, reachable: 1, inconclusive: 4))
  }
}
