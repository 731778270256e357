/*  gdlref.pl -- SWI-Prolog reference implementation of GDL (KIF syntax).

    A test oracle for the C engine `gdl`: it parses KIF itself, translates the
    rules to Prolog clauses (relation p/N becomes 'g_p'/N in module `game`),
    and evaluates them top-down, tabling every recursive relation.

    Usage:
        swipl -q tests/ref/gdlref.pl playout [--seed S] [--playouts K] [--max-steps M] FILE...
        swipl -q tests/ref/gdlref.pl bfs [--max-seconds T] [--goal-test generate|expand] FILE...
        swipl -q tests/ref/gdlref.pl bench [--seconds T] [--seed S] FILE...
    Common option:
        --tabling hybrid|incremental|abolish   (default hybrid)
    hybrid: recursive relations that do not depend on true/does are
    tabled as shared tables, computed once per run; recursive relations
    that depend on true/does are private tables, dropped with
    abolish_private_tables/0 whenever true or does change.
    incremental: SWI-Prolog incremental tabling (true/does are
    incremental dynamic predicates).  abolish: abolish_all_tables/0 at
    every change.  All three give identical traces on the whole corpus;
    hybrid is the fastest.

    See tests/ref/README.md for the output formats.
*/

:- initialization(main, main).

:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(pairs)).
:- use_module(library(readutil)).

:- dynamic opt/2.            % opt(Name, Value): command-line options
:- dynamic dep/2.            % dep(HeadPI, BodyPI): relation dependency graph
:- dynamic rel_seen/1.       % every relation (Name/Arity) mentioned
:- dynamic bfs_node/5.       % bfs_node(Id, State, ParentId, JointMove, Terminal)
:- dynamic bfs_seen/2.       % bfs_seen(Hash, Id)

%!  main
%
%   Entry point: MODE [options] FILE...

main :-
    current_prolog_flag(argv, Argv),
    set_stream(user_output, encoding(octet)),
    set_stream(user_output, buffer(full)),
    (   Argv = [Mode|Rest],
        memberchk(Mode, [playout, bfs, bench])
    ->  catch(parse_options(Rest, Files), E, (usage_error(E)))
    ;   usage_error(no_mode)
    ),
    (   Files == []
    ->  usage_error(no_files)
    ;   true
    ),
    get_time(T0),
    tabling_mode(TM),
    nb_setval(gdl_tabling, TM),
    catch(load_description(Files), Err, load_error(Err)),
    get_time(T1),
    SetupMs is (T1 - T0) * 1000,
    run_mode(Mode, SetupMs),
    flush_output(user_output).

usage_error(E) :-
    format(user_error, "gdlref: usage error (~w)~n", [E]),
    format(user_error,
           "usage: swipl -q gdlref.pl playout|bfs|bench [options] FILE...~n", []),
    halt(2).

load_error(E) :-
    (   E = gdl_error(File, Msg)
    ->  format(user_error, "~w: error: ~w~n", [File, Msg])
    ;   print_message(error, E)
    ),
    halt(2).

parse_options([], []).
parse_options([Opt, Val|Rest], Files) :-
    option_name(Opt, Name, Type), !,
    convert_option(Type, Opt, Val, V),
    retractall(opt(Name, _)),
    assertz(opt(Name, V)),
    parse_options(Rest, Files).
parse_options([Opt|_], _) :-
    sub_atom(Opt, 0, _, _, '--'), !,
    throw(bad_option(Opt)).
parse_options([F|Rest], [F|Files]) :-
    parse_options(Rest, Files).

option_name('--seed', seed, int).
option_name('--playouts', playouts, int).
option_name('--max-steps', max_steps, int).
option_name('--max-seconds', max_seconds, num).
option_name('--seconds', seconds, num).
option_name('--tabling', tabling, atom).
option_name('--goal-test', goal_test, atom).

convert_option(int, Opt, Val, V) :- !,
    (   catch(atom_number(Val, V), _, fail), integer(V)
    ->  true
    ;   throw(bad_value(Opt, Val))
    ).
convert_option(num, Opt, Val, V) :- !,
    (   catch(atom_number(Val, V), _, fail)
    ->  true
    ;   throw(bad_value(Opt, Val))
    ).
convert_option(atom, _, Val, Val).

option(Name, Default, Value) :-
    (   opt(Name, V) -> Value = V ; Value = Default ).

tabling_mode(Mode) :-
    option(tabling, hybrid, Mode0),
    (   memberchk(Mode0, [incremental, abolish, hybrid])
    ->  Mode = Mode0
    ;   usage_error(bad_tabling(Mode0))
    ).

		 /*******************************
		 *            LEXER             *
		 *******************************/

keyword(role).
keyword(init).
keyword(true).
keyword(does).
keyword(legal).
keyword(next).
keyword(goal).
keyword(terminal).
keyword(distinct).
keyword(not).
keyword(or).
keyword(<=).
keyword(base).
keyword(input).

%!  lex(+Codes, -Tokens)
%
%   Tokens are '(', ')', sym(Atom) (keywords folded to lower case) and
%   var(Name) (Name includes the leading `?`).

lex([], []).
lex([C|Cs], Ts) :-
    (   C =:= 0';
    ->  skip_comment(Cs, Rest),
        lex(Rest, Ts)
    ;   C =< 32
    ->  lex(Cs, Ts)
    ;   C =:= 0'(
    ->  Ts = ['('|Ts1],
        lex(Cs, Ts1)
    ;   C =:= 0')
    ->  Ts = [')'|Ts1],
        lex(Cs, Ts1)
    ;   symbol_codes(Cs, SCs, Rest),
        make_token([C|SCs], T),
        Ts = [T|Ts1],
        lex(Rest, Ts1)
    ).

skip_comment([], []).
skip_comment([C|Cs], Rest) :-
    (   C =:= 0'\n
    ->  Rest = Cs
    ;   skip_comment(Cs, Rest)
    ).

symbol_codes([], [], []).
symbol_codes([C|Cs], SCs, Rest) :-
    (   ( C =< 32 ; C =:= 0'( ; C =:= 0') ; C =:= 0'; )
    ->  SCs = [], Rest = [C|Cs]
    ;   SCs = [C|SCs1],
        symbol_codes(Cs, SCs1, Rest)
    ).

make_token(Codes, T) :-
    atom_codes(A, Codes),
    (   Codes = [0'?|_]
    ->  T = var(A)
    ;   downcase_atom(A, L),
        keyword(L)
    ->  T = sym(L)
    ;   T = sym(A)
    ).

		 /*******************************
		 *            PARSER            *
		 *******************************/

%!  parse_sexps(+File, +Tokens, -SExps)
%
%   SExp is sym(A), var(N) or list(Items).

parse_sexps(_, [], []) :- !.
parse_sexps(File, [')'|_], _) :- !,
    throw(gdl_error(File, 'unmatched ")"')).
parse_sexps(File, Ts, [S|Ss]) :-
    parse_sexp(File, Ts, S, Rest),
    parse_sexps(File, Rest, Ss).

parse_sexp(File, ['('|Ts], list(Items), Rest) :- !,
    parse_items(File, Ts, Items, Rest).
parse_sexp(_, [T|Ts], T, Ts).

parse_items(File, [], _, _) :- !,
    throw(gdl_error(File, 'unmatched "(" (end of file inside a list)')).
parse_items(_, [')'|Ts], [], Ts) :- !.
parse_items(File, Ts, [I|Is], Rest) :-
    parse_sexp(File, Ts, I, R1),
    parse_items(File, R1, Is, Rest).

%!  sexp_term(+File, +SExp, ?VarMap, -Term)
%
%   Convert to a Prolog term: symbols become atoms, `(f a b)` becomes
%   f(a,b), `(f)` becomes the atom f, variables become Prolog variables
%   (one per name within one top-level form; VarMap is an open list).

sexp_term(_, sym(A), _, A).
sexp_term(_, var(N), Map, V) :-
    memberchk(N-V, Map).
sexp_term(File, list(Items), Map, T) :-
    (   Items = [sym(F)|Args]
    ->  (   Args == []
        ->  T = F
        ;   maplist(arg_term(File, Map), Args, ArgTs),
            compound_name_arguments(T, F, ArgTs)
        )
    ;   Items == []
    ->  throw(gdl_error(File, 'empty list "()"'))
    ;   Items = [var(V)|_]
    ->  format(atom(Msg), 'variable ~w used as a function or relation name', [V]),
        throw(gdl_error(File, Msg))
    ;   throw(gdl_error(File, 'a list cannot start with a list'))
    ).

		 /*******************************
		 *          TRANSLATION         *
		 *******************************/

%!  load_description(+Files)
%
%   Parse all files (in order, as one description), translate and load
%   the clauses into module `game`.

load_description(Files) :-
    maplist(read_file_forms, Files, FormLists),
    append(FormLists, FileForms),          % list of File-Term
    maplist(form_clause, FileForms, Clauses),
    maplist(register_clause, Clauses),
    tabling_mode(TMode),
    declare_predicates(TMode),
    maplist(assert_game_clause, Clauses).

read_file_forms(File, Forms) :-
    (   exists_file(File)
    ->  true
    ;   throw(gdl_error(File, 'no such file'))
    ),
    read_file_to_codes(File, Codes, [encoding(octet)]),
    lex(Codes, Tokens),
    parse_sexps(File, Tokens, SExps),
    findall(File-T,
            ( member(S, SExps),
              sexp_term(File, S, _, T)
            ),
            Forms).

arg_term(File, Map, S, T) :-
    sexp_term(File, S, Map, T).

%!  form_clause(+File-Term, -Clause)
%
%   Clause is rule(Head, BodyGoal) with Head a g_ goal.

form_clause(File-T, rule(H, Body)) :-
    (   compound(T), compound_name_arguments(T, '<=', [Head|Lits])
    ->  true
    ;   T == '<='
    ->  throw(gdl_error(File, 'bare "<=" at top level'))
    ;   Head = T, Lits = []
    ),
    head_goal(File, Head, H),
    order_body(Lits, Ordered),
    maplist(lit_goal(File), Ordered, Goals),
    list_conj(Goals, Body).

head_goal(File, Head, _) :-
    var(Head), !,
    throw(gdl_error(File, 'variable as a rule head')).
head_goal(File, Head, _) :-
    functor(Head, N, _),
    memberchk(N, [not, distinct, or, '<=']), !,
    format(atom(Msg), '"~w" cannot be a rule head or fact', [N]),
    throw(gdl_error(File, Msg)).
head_goal(_, Head, G) :-
    rel_goal(Head, G).

rel_goal(T, G) :-
    (   atom(T)
    ->  atom_concat(g_, T, G)
    ;   compound_name_arguments(T, N, Args),
        atom_concat(g_, N, GN),
        compound_name_arguments(G, GN, Args)
    ).

lit_goal(File, L, _) :-
    var(L), !,
    throw(gdl_error(File, 'variable as a body literal')).
lit_goal(File, not(X), G) :- !,
    lit_goal(File, X, GX),
    G = (\+ GX).
lit_goal(_, distinct(A, B), G) :- !,
    G = (A \== B).
lit_goal(File, L, G) :-
    compound(L), compound_name_arguments(L, or, Ds), !,
    maplist(lit_goal(File), Ds, Gs),
    list_disj(Gs, G).
lit_goal(File, L, _) :-
    functor(L, N, A),
    memberchk(N/A, [not/_, distinct/_, or/0, '<='/_]),
    !,
    format(atom(Msg), 'malformed literal ~w/~w', [N, A]),
    throw(gdl_error(File, Msg)).
lit_goal(_, L, G) :-
    rel_goal(L, G).

list_conj([], true).
list_conj([G], G) :- !.
list_conj([G|Gs], (G, C)) :-
    list_conj(Gs, C).

list_disj([], fail).
list_disj([G], G) :- !.
list_disj([G|Gs], (G ; D)) :-
    list_disj(Gs, D).

%!  order_body(+Lits, -Ordered)
%
%   Positive literals keep their source order; each filter (`not`,
%   `distinct`, or an `or` containing a negative literal) goes at the
%   earliest point where all its variables are bound, or at the end.

order_body(Lits, Ordered) :-
    maplist(classify, Lits, Classified),
    schedule(Classified, [], Ordered).

classify(L, filter(L, Vs)) :-
    is_filter(L), !,
    term_variables(L, Vs).
classify(L, gen(L, Bs)) :-
    binds(L, Bs).

is_filter(L) :- var(L), !, fail.
is_filter(not(_)).
is_filter(distinct(_, _)).
is_filter(L) :-
    compound(L), compound_name_arguments(L, or, Ds),
    (   Ds == []
    ;   member(D, Ds), is_filter(D)
    ), !.

binds(L, Vs) :-
    compound(L), compound_name_arguments(L, or, [D|Ds]), !,
    binds(D, V0),
    foldl(intersect_binds, Ds, V0, Vs).
binds(L, Vs) :-
    term_variables(L, Vs).

intersect_binds(D, Acc, Vs) :-
    binds(D, DV),
    include(var_in(DV), Acc, Vs).

var_in(Vs, V) :-
    member(X, Vs), X == V, !.

schedule([], _, []) :- !.
schedule(Ls, Bound, [L|Os]) :-
    (   select_ready_filter(Ls, Bound, L, Rest)
    ->  schedule(Rest, Bound, Os)
    ;   selectchk(gen(L, Bs), Ls, Rest)
    ->  append(Bs, Bound, Bound1),
        schedule(Rest, Bound1, Os)
    ;   Ls = [filter(L, _)|Rest],
        schedule(Rest, Bound, Os)
    ).

select_ready_filter([filter(L, Vs)|Rest], Bound, L, Rest) :-
    forall(member(V, Vs), var_in(Bound, V)), !.
select_ready_filter([X|Xs], Bound, L, [X|Rest]) :-
    select_ready_filter(Xs, Bound, L, Rest).

%!  register_clause(+Clause)
%
%   Record relations and dependency edges (head -> every body relation).

register_clause(rule(H, Body)) :-
    pi(H, HPI),
    note_rel(HPI),
    body_rels(Body, PIs),
    forall(member(PI, PIs),
           ( note_rel(PI),
             (   dep(HPI, PI) -> true ; assertz(dep(HPI, PI)) )
           )).

pi(G, N/A) :- functor(G, N, A).

note_rel(PI) :-
    (   rel_seen(PI) -> true ; assertz(rel_seen(PI)) ).

body_rels(B, PIs) :-
    phrase(body_rels(B), PIs).

body_rels(true) --> !.
body_rels(fail) --> !.
body_rels((A, B)) --> !, body_rels(A), body_rels(B).
body_rels((A ; B)) --> !, body_rels(A), body_rels(B).
body_rels(\+ A) --> !, body_rels(A).
body_rels(_ \== _) --> !.
body_rels(G) --> { pi(G, PI) }, [PI].

:- table reach/2.
reach(X, Y) :- dep(X, Y).
reach(X, Y) :- reach(X, Z), dep(Z, Y).

recursive(PI) :- reach(PI, PI).

state_pred(g_true/1).
state_pred(g_does/2).

declare_predicates(TMode) :-
    forall(state_pred(PI), note_rel(PI)),
    forall(member(PI, [g_role/1, g_init/1, g_legal/2, g_next/1,
                       g_goal/2, g_terminal/0]),
           note_rel(PI)),
    forall(rel_seen(PI), declare_pred(TMode, PI)).

state_dependent(PI) :-
    state_pred(SP),
    reach(PI, SP), !.

declare_pred(incremental, PI) :-
    state_pred(PI), !,
    dynamic([game:PI], [incremental(true)]).
declare_pred(_, PI) :-
    state_pred(PI), !,
    dynamic([game:PI]).
declare_pred(incremental, PI) :-
    recursive(PI), !,
    game:table(PI as (incremental, dynamic)).
declare_pred(hybrid, PI) :-
    recursive(PI), \+ state_dependent(PI), !,
    game:table(PI as (shared, dynamic)).
declare_pred(_, PI) :-
    recursive(PI), !,
    game:table(PI as dynamic).
declare_pred(_, PI) :-
    dynamic([game:PI]).

assert_game_clause(rule(H, true)) :- !,
    assertz(game:H).
assert_game_clause(rule(H, B)) :-
    assertz(game:(H :- B)).

		 /*******************************
		 *         GAME INTERFACE       *
		 *******************************/

roles(Roles) :-
    findall(R, game:g_role(R), Rs0),
    dedup_keep_first(Rs0, Roles).

dedup_keep_first([], []).
dedup_keep_first([X|Xs], [X|Ys]) :-
    exclude(==(X), Xs, Xs1),
    dedup_keep_first(Xs1, Ys).

initial_state(S) :-
    set_does([]),
    set_state([]),
    findall(F, game:g_init(F), L),
    sort(L, S).

%   set_state(+S): make S (a sorted fact list) the current `true` facts.
set_state(S) :-
    retractall(game:g_true(_)),
    forall(member(F, S), assertz(game:g_true(F))),
    after_change.

set_does(Pairs) :-
    retractall(game:g_does(_, _)),
    forall(member(R-M, Pairs), assertz(game:g_does(R, M))),
    after_change.

%   after_change: make the tables consistent with the new true/does facts.
%   incremental: SWI-Prolog's incremental tabling does it;
%   abolish: drop every table;
%   hybrid: drop only the tables of the recursive relations that depend on
%   true/does (they are private tables); the tables of state-independent
%   recursive relations are shared tables and are kept for the whole run.
after_change :-
    nb_getval(gdl_tabling, Mode),
    after_change(Mode).

after_change(incremental).
after_change(abolish) :-
    abolish_all_tables.
after_change(hybrid) :-
    abolish_private_tables.

is_terminal :-
    (   game:g_terminal -> true ; fail ).

%   goal_texts(+Role, -Texts): sorted, distinct goal values as strings
goal_texts(R, Texts) :-
    findall(T, (game:g_goal(R, V), term_string_kif(V, T)), Ts),
    sort(Ts, Texts).

%   legal_moves(+Role, -Pairs): Text-Move pairs sorted by text, no duplicates
legal_moves(R, Pairs) :-
    findall(T-M, (game:g_legal(R, M), term_string_kif(M, T)), Ps),
    sort(1, @<, Ps, Pairs).

%   next_state(+JointPairs, -S): successor of the current state
next_state(Joint, S) :-
    set_does(Joint),
    findall(F, game:g_next(F), L),
    set_does([]),
    sort(L, S).

		 /*******************************
		 *           PRINTING           *
		 *******************************/

term_string_kif(T, S) :-
    (   atom(T)
    ->  atom_string(T, S)
    ;   kif_parts(T, Parts, []),
        atomics_to_string(Parts, S)
    ).

kif_parts(T, P0, P) :-
    (   atom(T)
    ->  P0 = [T|P]
    ;   var(T)
    ->  P0 = ['?_'|P]
    ;   compound(T)
    ->  compound_name_arguments(T, F, As),
        P0 = ['(', F|P1],
        kif_args(As, P1, [')'|P])
    ;   P0 = [T|P]
    ).

kif_args([], P, P).
kif_args([A|As], [' '|P0], P) :-
    kif_parts(A, P0, P1),
    kif_args(As, P1, P).

state_texts(S, Texts) :-
    maplist(term_string_kif, S, Ts),
    sort(Ts, Texts).

		 /*******************************
		 *              RNG             *
		 *******************************/

rng_seed(S) :-
    X is S /\ 0xFFFFFFFFFFFFFFFF,
    nb_setval(gdl_rng, X).

rng_next(R) :-
    nb_getval(gdl_rng, X0),
    X is (X0 * 6364136223846793005 + 1442695040888963407) /\ 0xFFFFFFFFFFFFFFFF,
    nb_setval(gdl_rng, X),
    R is X >> 33.

pick(List, X) :-
    length(List, N),
    rng_next(R),
    I is (R * N) >> 31,
    nth0(I, List, X).

		 /*******************************
		 *             MODES            *
		 *******************************/

run_mode(Mode, SetupMs) :-
    catch(run_mode_(Mode, SetupMs), E,
          ( flush_output(user_output),
            print_message(error, E),
            halt(2) )).

run_mode_(playout, _) :-
    option(seed, 1, Seed),
    option(playouts, 1, K),
    option(max_steps, 200, M),
    rng_seed(Seed),
    roles(Roles),
    forall(between(1, K, I), playout(I, Roles, M)).
run_mode_(bench, SetupMs) :-
    option(seconds, 10, T),
    option(seed, 1, Seed),
    rng_seed(Seed),
    roles(Roles),
    bench(Roles, T, SetupMs).
run_mode_(bfs, _) :-
    option(max_seconds, 60, T),
    option(goal_test, generate, GT),
    roles(Roles),
    (   Roles == []
    ->  format(user_error, "gdlref: bfs: the description has no role~n", []),
        halt(2)
    ;   memberchk(GT, [generate, expand])
    ->  true
    ;   usage_error(bad_goal_test(GT))
    ),
    bfs(Roles, T, GT, Status),
    flush_output(user_output),
    status_exit(Status, Code),
    halt(Code).

status_exit(solved, 0).
status_exit(unsolvable, 1).
status_exit(limit, 3).

% ---------------- playout ----------------

playout(I, Roles, MaxSteps) :-
    format("playout ~d~n", [I]),
    initial_state(S0),
    playout_step(0, S0, Roles, MaxSteps).

playout_step(N, S, Roles, MaxSteps) :-
    format("step ~d~n", [N]),
    set_state(S),
    state_texts(S, Texts),
    forall(member(T, Texts), format("true ~s~n", [T])),
    (   is_terminal -> Term = yes ; Term = no ),
    format("terminal ~w~n", [Term]),
    forall(member(R, Roles), print_goal(R)),
    (   Term == yes
    ->  format("end terminal~n")
    ;   maplist(legal_moves, Roles, Legals),
        forall(( nth1(J, Roles, R), nth1(J, Legals, Ps), member(T-_, Ps) ),
               ( term_string_kif(R, RT), format("legal ~s ~s~n", [RT, T]) )),
        (   nth1(J, Legals, []), nth1(J, Roles, R)
        ->  term_string_kif(R, RT),
            format("end nolegal ~s~n", [RT])
        ;   N >= MaxSteps
        ->  format("end maxsteps~n")
        ;   maplist(pick, Legals, Chosen),
            forall(( nth1(J, Roles, R), nth1(J, Chosen, T-_) ),
                   ( term_string_kif(R, RT), format("does ~s ~s~n", [RT, T]) )),
            pairs_values(Chosen, Moves),
            pairs_keys_values(Joint, Roles, Moves),
            next_state(Joint, S1),
            N1 is N + 1,
            playout_step(N1, S1, Roles, MaxSteps)
        )
    ).

print_goal(R) :-
    term_string_kif(R, RT),
    goal_texts(R, Vs),
    format("goal ~s", [RT]),
    forall(member(V, Vs), format(" ~s", [V])),
    nl.

% ---------------- bench ----------------

bench(Roles, Seconds, SetupMs) :-
    get_time(T0),
    Deadline is T0 + Seconds,
    nb_setval(bench_states, 0),
    nb_setval(bench_playouts, 0),
    bench_loop(Roles, Deadline),
    get_time(T1),
    Elapsed is max(T1 - T0, 1.0e-9),
    nb_getval(bench_states, NS),
    nb_getval(bench_playouts, NP),
    SPS is NS / Elapsed,
    PPS is NP / Elapsed,
    format("states_per_second ~2f playouts_per_second ~2f setup_ms ~2f~n",
           [SPS, PPS, SetupMs]).

bench_loop(Roles, Deadline) :-
    initial_state(S0),
    (   bench_playout(0, S0, Roles, Deadline)
    ->  nb_getval(bench_playouts, P0),
        P1 is P0 + 1,
        nb_setval(bench_playouts, P1),
        get_time(Now),
        (   Now < Deadline
        ->  bench_loop(Roles, Deadline)
        ;   true
        )
    ;   true                            % deadline hit inside a playout
    ).

%   Succeeds when the playout completed; fails when the deadline passed.
bench_playout(N, S, Roles, Deadline) :-
    set_state(S),
    (   is_terminal
    ->  true
    ;   N >= 10000
    ->  true
    ;   maplist(legal_moves, Roles, Legals),
        (   memberchk([], Legals)
        ->  true
        ;   maplist(pick, Legals, Chosen),
            pairs_values(Chosen, Moves),
            pairs_keys_values(Joint, Roles, Moves),
            next_state(Joint, S1),
            nb_getval(bench_states, C0),
            C1 is C0 + 1,
            nb_setval(bench_states, C1),
            get_time(Now),
            Now < Deadline,
            N1 is N + 1,
            bench_playout(N1, S1, Roles, Deadline)
        )
    ).

% ---------------- bfs ----------------

%   Goal test `generate` (default): a state is tested (terminal and goal of
%   the first role = 100) when it is first reached (the initial state, or a
%   new successor); `expand`: when it is taken from the queue.

bfs(Roles, MaxSeconds, GoalTest, Status) :-
    get_time(T0),
    Deadline is T0 + MaxSeconds,
    Roles = [Role|_],
    retractall(bfs_node(_, _, _, _, _)),
    retractall(bfs_seen(_, _)),
    initial_state(S0),
    term_hash(S0, H0),
    assertz(bfs_seen(H0, 0)),
    nb_setval(bfs_expanded, 0),
    nb_setval(bfs_next_id, 1),
    (   GoalTest == generate
    ->  set_state(S0),
        state_test(Role, Term0, Win0),
        assertz(bfs_node(0, S0, none, none, Term0)),
        (   Win0 == true
        ->  Result = solved(0)
        ;   bfs_loop(0, Roles, Role, Deadline, GoalTest, Result)
        )
    ;   assertz(bfs_node(0, S0, none, none, unknown)),
        bfs_loop(0, Roles, Role, Deadline, GoalTest, Result)
    ),
    get_time(T1),
    Secs is T1 - T0,
    nb_getval(bfs_expanded, Exp),
    (   Result = solved(Id)
    ->  Status = solved,
        plan(Id, Plan),
        length(Plan, Len),
        format("status solved length ~d states ~d seconds ~3f~n", [Len, Exp, Secs]),
        forall(member(J, Plan), print_plan_move(J))
    ;   Status = Result,
        format("status ~w length - states ~d seconds ~3f~n", [Result, Exp, Secs])
    ).

%   state_test(+Role, -Terminal, -Win) on the current state
state_test(Role, Terminal, Win) :-
    (   is_terminal
    ->  Terminal = true,
        (   game:g_goal(Role, V), atom(V), V == '100'
        ->  Win = true
        ;   Win = false
        )
    ;   Terminal = false, Win = false
    ).

bfs_loop(Head, Roles, Role, Deadline, GoalTest, Result) :-
    nb_getval(bfs_next_id, Tail),
    (   Head >= Tail
    ->  Result = unsolvable
    ;   get_time(Now), Now >= Deadline
    ->  Result = limit
    ;   bfs_node(Head, S, _, _, Term),
        (   Term == true
        ->  Head1 is Head + 1,
            bfs_loop(Head1, Roles, Role, Deadline, GoalTest, Result)
        ;   set_state(S),
            (   Term == unknown
            ->  state_test(Role, Term1, Win1)
            ;   Term1 = Term, Win1 = false
            ),
            (   Win1 == true
            ->  Result = solved(Head)
            ;   Term1 == true
            ->  Head1 is Head + 1,
                bfs_loop(Head1, Roles, Role, Deadline, GoalTest, Result)
            ;   expand(Head, Roles, Role, GoalTest, Found),
                (   Found = found(Id)
                ->  Result = solved(Id)
                ;   Head1 is Head + 1,
                    bfs_loop(Head1, Roles, Role, Deadline, GoalTest, Result)
                )
            )
        )
    ).

%   expand(+Id, ...): the current state is that of node Id (not terminal)
expand(Id, Roles, Role, GoalTest, Found) :-
    nb_getval(bfs_expanded, E0),
    E1 is E0 + 1,
    nb_setval(bfs_expanded, E1),
    maplist(legal_moves, Roles, Legals),
    findall(Joint-S1,
            ( joint_move(Roles, Legals, Joint),
              next_state(Joint, S1)
            ),
            Succs),
    add_successors(Succs, Id, Role, GoalTest, Found).

joint_move([], [], []).
joint_move([R|Rs], [Ps|Pss], [R-M|Js]) :-
    member(_-M, Ps),
    joint_move(Rs, Pss, Js).

add_successors([], _, _, _, none).
add_successors([Joint-S|Rest], Parent, Role, GoalTest, Found) :-
    term_hash(S, H),
    (   bfs_seen(H, Id0), bfs_node(Id0, S0, _, _, _), S0 == S
    ->  add_successors(Rest, Parent, Role, GoalTest, Found)
    ;   nb_getval(bfs_next_id, Id),
        Id1 is Id + 1,
        nb_setval(bfs_next_id, Id1),
        assertz(bfs_seen(H, Id)),
        (   GoalTest == generate
        ->  set_state(S),
            state_test(Role, Term, Win),
            assertz(bfs_node(Id, S, Parent, Joint, Term)),
            (   Win == true
            ->  Found = found(Id)
            ;   add_successors(Rest, Parent, Role, GoalTest, Found)
            )
        ;   assertz(bfs_node(Id, S, Parent, Joint, unknown)),
            add_successors(Rest, Parent, Role, GoalTest, Found)
        )
    ).

plan(Id, Plan) :-
    plan(Id, [], Plan).
plan(Id, Acc, Plan) :-
    bfs_node(Id, _, Parent, Joint, _),
    (   Parent == none
    ->  Plan = Acc
    ;   plan(Parent, [Joint|Acc], Plan)
    ).

print_plan_move(Joint) :-
    pairs_values(Joint, Moves),
    maplist(term_string_kif, Moves, Ts),
    atomic_list_concat(Ts, ' ', Text),
    format("move ~w~n", [Text]).
