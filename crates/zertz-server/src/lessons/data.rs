//! The lessons, in the order a newcomer needs them. Every position is a real position string;
//! the tests of [`crate::lessons::check`] play every legal move of every step and check that at least one
//! does the task (and, where the lesson is a choice, that at least one does not).

use crate::lessons::Goal::{Capture, Exact, Isolate, NoReply, Place, Win};
use crate::lessons::{Lesson, Step};

/// Every lesson, in order.
pub const LESSONS: &[Lesson] = &[
    Lesson {
        id: "placing",
        title: "Placing a marble",
        intro: "Nobody owns a colour in ZÈRTZ: both players take marbles from one shared supply. \
                A quiet turn has two parts. First put a marble of any colour on any empty ring; \
                then take one ring away from the edge of the board. The board shrinks at every \
                such turn. Each ring has a name: its column, a to g from the left, then its \
                number, counted up from the bottom of the column; d4 is the centre.",
        position: "37 standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1",
        steps: &[Step {
            task: "Put a grey marble on the ring d4 (the centre), then remove any ring at the edge.",
            hints: &[
                "Click the grey marble beside the board, then the centre ring d4.",
                "Then click one of the rings at the edge: they are the ones that can slide out.",
            ],
            goals: &[Place {
                colours: "G",
                at: &["d4"],
                remove: &[],
            }],
            right: "That is a whole turn: a marble placed, a ring removed. Every quiet turn \
                    looks like this.",
            wrong: "Any colour is allowed in a game; here the point is to do exactly what the \
                    task says.",
            reply: None,
        }],
    },
    Lesson {
        id: "free-rings",
        title: "Which rings are free",
        intro: "Only a free ring may be removed: an empty ring that could slide out of the board \
                without pushing any other ring. On the drawing that means two neighbouring \
                places side by side, around the ring, with no ring on them. As rings leave, \
                rings that were inside the board become free too.",
        position: "37 standard --../...../....../...W.../....../..G../.... 5/7/10 0/0/0 0/0/0 1",
        steps: &[Step {
            task: "The rings a1 and a2 are gone. One ring that used to be inside the board is \
                   free now: place any marble, then remove that ring.",
            hints: &[
                "Look at the rings touching the two gone places a1 and a2.",
                "b2 has lost two neighbours next to each other, so it can slide out to the left.",
            ],
            goals: &[Place {
                colours: "",
                at: &[],
                remove: &["b2"],
            }],
            right: "b2 has two empty places side by side (a1 and a2), so it is free, although it \
                    started in the middle of the board. A ring with a marble on it is never free.",
            wrong: "That ring was at the edge from the start. b2 was inside the board and became \
                    free only when a1 and a2 left.",
            reply: None,
        }],
    },
    Lesson {
        id: "compulsory-capture",
        title: "Captures are compulsory",
        intro: "A marble jumps over a marble next to it (of any colour) onto the empty ring \
                straight behind, and the jumped marble is captured by the player who moved. \
                When a jump is possible anywhere on the board, the player to move must capture \
                instead of placing.",
        position: "37 standard -.../...../....../...WG../....../...../-... 5/7/10 0/0/0 0/0/0 1",
        steps: &[Step {
            task: "Make your move.",
            hints: &[
                "The white marble on d4 and the grey marble on d5 touch, and there are empty \
                 rings on both sides of the pair.",
                "Click a marble that can jump, then the empty ring it lands on.",
            ],
            goals: &[Capture(1)],
            right: "A capture was possible, so a capture it had to be. The marble you jumped over \
                    is yours now; it counts towards your winning set.",
            wrong: "A capture was possible, so the move had to be a capture.",
            reply: None,
        }],
    },
    Lesson {
        id: "capture-choice",
        title: "Choosing between captures",
        intro: "When more than one capture is possible you must take one of them, but which one \
                is your choice. Look at what each leaves behind: a capture can open a jump for \
                your opponent.",
        position: "37 standard B.../...../.B..../.B...../....../...../..G- 6/7/7 0/0/0 0/0/0 1",
        steps: &[Step {
            task: "Capture, and leave your opponent no capture in reply.",
            hints: &[
                "There are two captures: c2 over d2, and d2 over c2.",
                "If the marble lands on b2, it sits next to the black marble on a1 with an empty \
                 ring behind it.",
            ],
            goals: &[Capture(1), NoReply],
            right: "Landing on e1 leaves nothing to jump. The other capture would have landed on \
                    b2, next to a1, and handed your opponent a capture at once.",
            wrong: "Try the other capture.",
            reply: None,
        }],
    },
    Lesson {
        id: "chain-capture",
        title: "Chain captures",
        intro: "After a jump, if the same marble can jump again, it must: the turn goes on until \
                that marble has no jump left, and it may change direction on the way. Where \
                several jumps or several chains are possible you choose, and a longer chain is \
                not required, but it is usually worth more.",
        position: "37 standard ...-/...../....../..BB.../....G./...B./-... 6/7/7 0/0/0 0/0/0 1",
        steps: &[Step {
            task: "Take three marbles in one turn.",
            hints: &[
                "Start with the black marble on d3.",
                "d3 over d4 to d5, then over e5 to f5, then over f4 to f3.",
            ],
            goals: &[Capture(3)],
            right: "One marble, three jumps, three captures. Once it had started, the marble had \
                    to go on jumping while it could.",
            wrong: "One of the marbles can go on jumping after its first jump.",
            reply: None,
        }],
    },
    Lesson {
        id: "isolation",
        title: "Isolating a group",
        intro: "When a ring removal cuts a group of rings off from the rest of the board, and \
                every ring of that group holds a marble, the player who removed the ring takes \
                the whole group: its marbles are captured, its rings leave the board.",
        position: "37 standard W.../--.../....../......./...G../...../.... 5/7/10 0/0/0 0/0/0 1",
        steps: &[Step {
            task: "The white marble on a1 hangs on to the board by one ring. Place any marble and \
                   remove a ring so that a1 is cut off, and take it.",
            hints: &[
                "b1 and b2 are gone already: a1 touches the board only through a2.",
                "Place anywhere else, then remove a2.",
            ],
            goals: &[Isolate(1)],
            right: "Removing a2 left a1 alone, and its only ring held a marble: the group was \
                    yours. An isolation is a placement turn that also captures.",
            wrong: "a1 is still joined to the board. Which ring holds it on?",
            reply: None,
        }],
    },
    Lesson {
        id: "isolation-capture",
        title: "Capturing with isolation",
        intro: "A group that is already cut off but still has an empty ring stays on the board: \
                anyone may place a marble there. The player who fills its last empty ring takes \
                the whole group, whether or not the ring removed that turn had anything to do \
                with it.",
        position: "37 standard W.-./---../....../......./...G../...../.... 5/7/10 0/0/0 0/0/0 1",
        steps: &[Step {
            task: "The rings a1 and a2 are cut off from the rest. Take both of them, with the \
                   white marble.",
            hints: &[
                "The group a1 + a2 has one empty ring left.",
                "Place a marble on a2, then remove any free ring.",
            ],
            goals: &[Isolate(2)],
            right: "Filling a2 completed the cut-off group, so both of its marbles are yours: the \
                    white one and the one you just placed.",
            wrong: "The cut-off group can give you two marbles, not one: fill its empty ring \
                    instead of removing it.",
            reply: None,
        }],
    },
    Lesson {
        id: "win-colours",
        title: "Winning: four, five or six of one colour",
        intro: "You win at once when your captures reach four white, or five grey, or six black \
                marbles, or three of each colour. The rarer a colour, the fewer you need.",
        position: "37 standard -.../...../...WB./......./....../...../-... 3/6/8 3/2/2 1/1/1 1",
        steps: &[Step {
            task: "You hold three white, two grey and two black. Win now.",
            hints: &[
                "Which colour are you one marble short of?",
                "Jump over the white marble.",
            ],
            goals: &[Win],
            right: "Four white marbles: the game is over. With grey you would need five, with \
                    black six.",
            wrong: "One more white marble would make four.",
            reply: None,
        }],
    },
    Lesson {
        id: "win-each",
        title: "Winning: three of each",
        intro: "The fourth winning set mixes the colours: three white, three grey and three \
                black. It often decides games where no single colour runs out.",
        position: "37 standard -.../...../....../......./..GW../...../-... 3/5/7 2/3/3 1/1/1 1",
        steps: &[Step {
            task: "You hold two white, three grey and three black. Win now.",
            hints: &[
                "Three of each: which colour do you have only two of?",
                "Jump over the white marble.",
            ],
            goals: &[Win],
            right: "Three white, three grey, three black: a winning set.",
            wrong: "Four grey is not enough (five are needed), and you still have only two \
                    white.",
            reply: None,
        }],
    },
    Lesson {
        id: "blitz",
        title: "Blitz numbers",
        intro: "Blitz is a shorter game with fewer marbles (5 white, 7 grey, 9 black) and \
                smaller winning sets: three white, four grey, five black, or two of each.",
        position: "37 blitz -.../...../..WG../......./....../...../-... 3/3/7 1/2/2 0/1/0 1",
        steps: &[Step {
            task: "This is a Blitz game. You hold one white, two grey and two black. Win now.",
            hints: &[
                "In Blitz, two of each colour is enough.",
                "You have only one white marble, and there is a white marble to take.",
            ],
            goals: &[Win],
            right: "Two of each colour wins in Blitz.",
            wrong: "In Blitz, three white, four grey, five black or two of each win.",
            reply: None,
        }],
    },
    Lesson {
        id: "empty-supply",
        title: "When the supply runs out",
        intro: "When the shared supply is empty, a player who must place takes one of their own \
                captured marbles instead, and gives it back to the board. Choose the colour you \
                need least.",
        position: "37 standard --../-..../....../...W.../....../...G./...- 0/0/0 3/1/1 2/2/2 1",
        steps: &[Step {
            task: "The supply is empty and you hold three white, one grey and one black. Place \
                   one of your marbles without giving up your white lead.",
            hints: &[
                "Your marbles now come from your own captures, shown under your name.",
                "Three white is one short of a win: keep them.",
            ],
            goals: &[Place {
                colours: "GB",
                at: &[],
                remove: &[],
            }],
            right: "Grey or black cost you little; the three white stay one short of a win.",
            wrong: "You gave back a white marble: now you are two short of four white.",
            reply: None,
        }],
    },
    Lesson {
        id: "last-ring",
        title: "The end of the board: the last ring",
        intro: "When the last empty ring of the board is filled, the whole board is one group \
                with a marble on every ring, so the player who filled it takes every marble on \
                the board.",
        position: "37 standard ----/-----/--GB--/--W.W--/--BG--/-----/---- 1/1/1 1/2/3 1/1/1 1",
        steps: &[Step {
            task: "Seven rings are left and one of them is empty. Finish the game.",
            hints: &["Place a marble on d4, the only empty ring: no ring can be removed after it."],
            goals: &[Isolate(7), Win],
            right: "The board was full, so every marble on it was yours, enough for a winning set.",
            wrong: "Fill the last empty ring: every marble on the board becomes yours.",
            reply: None,
        }],
    },
    Lesson {
        id: "no-move",
        title: "The end of the board: no move left",
        intro: "A player who must place, with the supply empty and no captured marble to place, \
                has no move and loses. So when the supply is empty, leave an opponent with \
                nothing in hand no capture to make.",
        position: "37 standard -.../-..../....../...W.../....../....-/..-- 0/0/0 2/2/1 0/0/0 1",
        steps: &[Step {
            task: "Your opponent holds no marble and the supply is empty. Place one of yours so \
                   that they have no move at all.",
            hints: &[
                "After your turn your opponent can only capture: do not give them a jump.",
                "Keep your marble away from the white marble on d4, or put it where nothing \
                 can land behind it.",
            ],
            goals: &[Win],
            right: "No capture to make and nothing to place: your opponent has no legal move and \
                    loses.",
            wrong: "Your marble gave your opponent a jump, and a capture is a move: they play on \
                    with the marble they take.",
            reply: None,
        }],
    },
    Lesson {
        id: "notation",
        title: "Reading the notation",
        intro: "Games are written down with the official coordinates: columns a to g from the \
                left, rings numbered from the bottom of each column. A placement is the colour, \
                the ring, a comma and the removed ring: Wd4,a1. A capture is x, the start, then \
                for each jump the colour taken and the landing ring: x d5Wd3.",
        position: "37 standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1",
        steps: &[
            Step {
                task: "Play Wd4,a1.",
                hints: &[
                    "A white marble on d4, then remove a1.",
                    "a1 is the bottom ring of the leftmost column.",
                ],
                goals: &[Exact("Wd4,a1")],
                right: "W for white, d4 the ring, a1 the ring removed. Your opponent answers \
                        Gd5,g1.",
                wrong: "That is a different move: read it again, letter by letter.",
                reply: Some("Gd5,g1"),
            },
            Step {
                task: "Your opponent played Gd5,g1 and you must capture. Play x d5Wd3.",
                hints: &[
                    "x: a capture. It starts on d5 and takes a white marble (W), landing on d3.",
                    "The grey marble on d5 jumps over your white marble on d4.",
                ],
                goals: &[Exact("x d5Wd3")],
                right: "x d5Wd3: from d5, over a white marble, to d3.",
                wrong: "That is the other capture: read the start ring again.",
                reply: None,
            },
        ],
    },
    Lesson {
        id: "host-coordinates",
        title: "The host's coordinates",
        intro: "Matches run by the online host of the old chat rooms use other coordinates. \
                Turn the board a quarter turn to the left: the columns become rows. Rows are \
                lettered from the top, so row A is the column g; in each row the rings still \
                there are numbered from the left, starting at 1. Numbers shift as rings leave. \
                Choose \"host\" coordinates in the board options to see them on the board.",
        position: "37 standard -.../...../....G./...W.../....../...../...- 5/7/10 0/0/0 0/0/0 1",
        steps: &[Step {
            task: "The host writes: B A1 G3. Play it.",
            hints: &[
                "Row A is the column g. Its top ring, g4, is gone, so A1 is g3.",
                "Row G is the column a, counted from its top: G1 is a4, G2 a3, G3 a2.",
            ],
            goals: &[Exact("Bg3,a2")],
            right: "B A1 G3 is Bg3,a2 in official notation: g4 is gone, so g3 is first in row A.",
            wrong: "Not that one. Count the rings still there in each row, from the left of the \
                    turned board.",
            reply: None,
        }],
    },
];
