use super::*;
use crate::rules::Rules;

#[test]
fn steps_are_read_leniently() {
    let p = Position::standard();
    let wd4 = parse_step(&p, "wd4 a1").unwrap();
    assert_eq!(wd4, parse_step(&p, "Wd4,a1").unwrap());
    assert_eq!(wd4.text(&p), "Wd4,a1");
    let b = parse_step(&p, "(bribe 1/0/0 accepted) -").unwrap();
    assert_eq!(
        b,
        Step::Bribe {
            bribe: Marbles::new(1, 0, 0),
            accepted: true
        }
    );
    assert_eq!(b.text(&p), "bribe 1/0/0 accepted");
    assert!(parse_step(&p, "bribe 1/0/0 maybe").is_err());
    assert!(parse_step(&p, "bribe 1/0").is_err());
    assert!(parse_step(&p, "Qd4").is_err());
}

#[test]
fn bribes_need_the_rule() {
    let start: Position =
        "37 standard ..../...../....../......./....../...../.... 4/8/10 1/0/0 1/0/0 1"
            .parse()
            .unwrap();
    let mut off = GameTree::new(start.clone(), Rules::default());
    let e = off
        .add_text(NodeId::ROOT, "bribe 1/0/0 rejected")
        .unwrap_err();
    assert!(e.to_string().contains("not allowed"), "{e}");
    let mut on = GameTree::new(
        start.clone(),
        Rules {
            bribes: true,
            ..Rules::default()
        },
    );
    let r = on.add_text(NodeId::ROOT, "bribe 1/0/0 rejected").unwrap();
    // A rejected bribe changes nothing: the same player moves.
    assert_eq!(on.position(r).unwrap(), &start);
    assert_eq!(on.game_at(r).unwrap().bribes().len(), 1);
}

#[test]
fn headers_derived_from_the_game_are_refused() {
    let mut t = GameTree::new(Position::standard(), Rules::default());
    assert!(t.set_header("Result", "1-0").is_err());
    assert!(t.set_header("Bad name", "x").is_err());
    t.set_header("Event", "club night").unwrap();
    assert_eq!(t.header("event"), Some("club night"));
    assert!(t.remove_header("EVENT"));
    assert!(
        t.set_ending(Some(Outcome::Draw(DrawReason::Repetition)))
            .is_err()
    );
    let t = GameTree::with_headers(
        Position::standard(),
        &[
            ("Repetition".into(), "forbidden".into()),
            ("Player1".into(), "Ann".into()),
            ("Result".into(), "1-0".into()),
        ],
    )
    .unwrap();
    assert_eq!(t.rules().repetition, crate::rules::Repetition::Forbidden);
    assert_eq!(t.headers(), &[("Player1".to_string(), "Ann".to_string())]);
    let e = GameTree::with_headers(Position::standard(), &[("Bribes".into(), "maybe".into())])
        .unwrap_err();
    assert!(e.to_string().contains("Bribes"), "{e}");
}

#[test]
fn results_are_settled_against_the_main_line() {
    let mut t = GameTree::new(Position::standard(), Rules::default());
    t.add_text(NodeId::ROOT, "Wd4,a1").unwrap();
    t.set_result("0-1", Some("time")).unwrap();
    assert_eq!(
        t.ending(),
        Some(Outcome::Win {
            winner: crate::marbles::Player::Two,
            reason: WinReason::Time
        })
    );
    assert!(t.to_record_text().contains("[Termination \"time\"]"));
    t.set_result("*", None).unwrap();
    assert_eq!(t.ending(), None);
    assert!(t.set_result("2-0", None).is_err());
    assert!(t.set_result("1-0", Some("winning set")).is_err());
}
