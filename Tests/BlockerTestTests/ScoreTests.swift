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

@Suite("Scores with leaks")
struct ScoreLeakTests {
  @Test("A leak is never blocked: blocked ÷ (blocked + reachable + leaking); old reports read it as 0")
  func leaking() throws {
    let score = Score([.blocked, .blocked, .leaking, .reachable, .inconclusive])
    #expect(score.leaking == 1 && score.notBlocked == 2 && score.total == 5)
    #expect(score.percent == 50)
    let old = Data(#"{"blocked":2,"reachable":1,"inconclusive":0,"percent":66.7,"rating":"strong"}"#.utf8)
    #expect(try JSONDecoder().decode(Score.self, from: old) == Score(blocked: 2, reachable: 1))
    let object =
      try JSONSerialization.jsonObject(with: try JSONEncoder().encode(score)) as? [String: Any]
    #expect(object?["leaking"] as? Int == 1)
  }
}
