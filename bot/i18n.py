"""The one translation layer: every user-facing string of the host.

``t(locale, key, **params)`` picks the French catalogue for ``fr*`` locales
and English otherwise. Game-specific sentences (decisions, rule refusals)
come from the game modules themselves (``Game.decision_text``,
``RulesError.message``), so no game-specific text lives here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

EN: dict[str, str] = {
    # generic
    "error-prefix": "⚠️ {message}",
    "internal-error": "Something went wrong on our side; nothing was changed. Try again.",
    # lobby
    "unknown-game": "Unknown game `{game}`. Games: {games}.",
    "bad-seats": "{game} is for {min} to {max} players.",
    "bad-options": "Those options are refused: {reason}",
    "channel-busy": "This channel already has a lobby or a match. Finish or cancel it first.",
    "no-lobby": "There is no open lobby in this channel. Open one with `/lobby create`.",
    "already-joined": "You are already in this lobby.",
    "lobby-full": "This lobby is full ({seats} seats).",
    "not-in-lobby": "You are not in this lobby.",
    "not-host": "Only the host can do that (or a member with Manage Server, to cancel).",
    "nothing-to-cancel": "There is nothing to cancel in this channel.",
    "not-enough-players": "At least {min} players are needed; {have} joined.",
    "bad-level": "Unknown bot level `{level}`: {levels}.",
    "bad-clock": "Unknown clock `{clock}`: {clocks}.",
    "no-bots-for-game": "{game} has no bot players yet.",
    "lobby-bot-added": "A bot ({level}) takes a seat.",
    "lobby-clock": "Clock: {clock}",
    "lobby-expired": "The lobby expired: nobody started it.",
    "clock-correspondence": "correspondence",
    "clock-fast": "fast",
    "clock-detail-correspondence": "correspondence: {per_move} per decision",
    "clock-detail-fast": "fast: {per_move} per decision + {bank} bank",
    "opt-clock": "The turn clock",
    "level-easy": "easy",
    "level-normal": "normal",
    "level-hard": "hard",
    "button-addbot": "Add bot",
    "reminder-dm": "⏰ Match #{match} in {channel}: it is your decision, about {left} left "
    "before a bot decides for you.",
    "reminder-mention": "⏰ {user}, it is your decision: about {left} left before a bot "
    "decides for you.",
    "time-second": "{count} second",
    "time-seconds": "{count} seconds",
    "time-minute": "{count} minute",
    "time-minutes": "{count} minutes",
    "time-hour": "{count} hour",
    "time-hours": "{count} hours",
    "time-hours-minutes": "{hours} and {minutes}",
    "lobby-title": "{game}: lobby",
    "lobby-body": "Host: {host}\nPlayers ({count}/{seats}): {players}\nOptions: {options}",
    "lobby-default-options": "defaults",
    "lobby-cancelled": "Lobby cancelled.",
    "lobby-opened": "Lobby for {game} opened: the others join with the Join button.",
    "lobby-started": "The match has started: {players}.",
    "lobby-joined": "{user} joined the lobby.",
    "lobby-left": "{user} left the lobby.",
    "button-join": "Join",
    "button-leave": "Leave",
    "button-start": "Start",
    "button-cancel": "Cancel",
    # match
    "no-match": "There is no match in progress in this channel.",
    "no-such-match": "Match #{match} does not exist.",
    "match-closed": "This match was cancelled.",
    "not-seated": "You have no seat in this match.",
    "not-your-turn": "It is not your turn to decide.",
    "stale": "The board changed since you looked; look again.",
    "game-over": "This match is over.",
    "already-resigned": "You have already resigned.",
    "illegal": "Move refused: {reason}",
    "match-cancelled": "Match #{match} was cancelled by {user}.",
    "match-title": "{game} — match #{match}",
    "to-act": "{who}: {what}",
    "your-turn": "Your turn",
    "played": "{user} played `{move}`.",
    "resigned": "{user} resigned.",
    "move-accepted": "Played `{move}`.",
    "resign-accepted": "You resigned.",
    "result-title": "Match over",
    "result-line": "{place}. {user}",
    "result-reason": "Reason: {reason}",
    "seed-reveal": "Seed: `{seed}` (SHA-256 published at the start: `{sha}`). "
    "Anyone can replay the match and check every shuffle.",
    "seed-commit": "Seed commitment (SHA-256): `{sha}`",
    "dm-closed": "{user}, I can't DM you your hand (your DMs are closed). "
    "Use `/hand` to see it here privately.",
    "hand-title": "Your hand — {game} #{match}",
    "hand-not-your-turn": "Not your turn: {what}",
    "spectator": "You are watching: you have no seat in this match.",
    "choose-action": "Choose an action…",
    "more-actions": "{count} more moves: type them with `/play`.",
    "menu-choose": "Choose…",
    "menu-choose-range": "Choose ({first}–{last} of {count})…",
    "menu-next-page": "More choices ({first}–{last} of {count})…",
    "menu-level": "**{path}**\nNext choice:",
    "menu-spots": "The numbered outlines are the legal spots (only you see this image).",
    "earlier-lines": "· … {count} earlier lines not shown",
    "board-reposted": "Board posted.",
    "no-board": "No board to show.",
    # commands
    "cmd-lobby": "Open, join and start matches",
    "cmd-lobby-create": "Open a lobby for a game in this channel",
    "cmd-lobby-join": "Join the lobby of this channel",
    "cmd-lobby-leave": "Leave the lobby of this channel",
    "cmd-lobby-start": "Start the match (host only)",
    "cmd-lobby-cancel": "Cancel the lobby or match of this channel",
    "cmd-lobby-addbot": "Add a bot player",
    "cmd-play": "Play a move in the game's notation",
    "cmd-hand": "See your hand and your possible moves, privately",
    "cmd-board": "Post the current board again",
    "cmd-resign": "Resign from your match in this channel",
    "cmd-rules": "Rules summary and options of a game",
    "cmd-help": "The list of commands",
    "opt-game": "The game",
    "opt-seats": "Number of seats",
    "opt-options": "Options as key=value pairs",
    "opt-move": "Your move, e.g. 7>1",
    "opt-level": "Bot level",
    "help-text": "**Gueridon** hosts French tabletop card games.\n"
    "`/lobby create game:<game> [seats] [options]` open a lobby here · "
    "`/lobby join` · `/lobby leave` · `/lobby start` · `/lobby cancel`\n"
    "`/play move:<move>` play (autocomplete shows your moves) · `/hand` your hand, privately · "
    "`/board` the board again · `/resign` resign\n"
    "`/rules game:<game>` the rules summary and options · `/help` this list\n"
    "`/leaderboard game:<game>` ratings · `/stats [user]` a record and rating chart · "
    "`/history [user] [game]` recent matches · `/replay match:<id>` the record and a viewer\n"
    "Your hand also comes by DM, with buttons for your moves.",
    "rules-title": "{game} — rules",
    "rules-options": "Options (key = default): {options}",
    "rules-in-force": "Options in force here: {options}",
    "rules-seats": "{min}-{max} players",
    "rules-doc": "Full rules: docs/rules/{game}.md",
    # ratings, history, replays
    "cmd-leaderboard": "The rating leaderboard of a game",
    "cmd-stats": "A player's record and rating history",
    "cmd-history": "Recent matches",
    "cmd-replay": "A match's record (JSON) and a step-by-step viewer",
    "opt-scope": "This server or all servers",
    "opt-user": "The player (default: you)",
    "opt-match": "The match number",
    "scope-server": "this server",
    "scope-global": "all servers",
    "leaderboard-title": "{game} — leaderboard",
    "leaderboard-subtitle": "{scope} · provisional under {n} games",
    "stats-title": "{user} — statistics",
    "stats-line": "**{game}**: {played} played, {won} won, average place {avg:.1f}",
    "stats-rating": "rating {scope}: **{rating}**{mark} ({games} rated)",
    "stats-bots": "against bots: {rating} ({games})",
    "stats-none": "{user} has not finished a match yet.",
    "stats-chart": "{user} — rating",
    "provisional-mark": " (provisional)",
    "history-title": "Recent matches",
    "history-none": "No finished match yet.",
    "history-line": "#{match} {game} · {date} · {players} · {reason}",
    "resigned-mark": "resigned",
    "bot-mark": "bot",
    "replay-title": "Replay of match #{match} — {game}",
    "replay-step": "Step {step}/{total}",
    "replay-start": "The deal",
    "replay-hidden": "Hidden information stays hidden: this is what a spectator saw.",
    "replay-file": "The record (engine version, options, seed, moves) replays to the same final state.",
    "replay-live": "The match is still being played: the moves and the seed are revealed at the end.",
    "rematch": "Rematch",
    "rematch-not-over": "The match is not over yet.",
    "rematch-opened": "Rematch: a new lobby with the same players and options.",
    "button-first": "First",
    "button-prev": "Back",
    "button-next": "Next",
    "button-last": "Last",
    "button-page-prev": "Previous page",
    "button-page-next": "Next page",
    # reasons of the end (``Outcome.reason`` of every game, see ``reason_text``)
    "reason-coup-fatal": "coup fatal",
    "reason-knockout": "knockout",
    "reason-exhausted": "no cards left",
    "reason-resign": "resignation",
    # the terminal console (bot/console.py)
    "console-games": "Games:",
    "console-ask-game": "Game",
    "console-ask-players": "Players at this keyboard (separated by commas)",
    "console-ask-options": "Options (key=value)",
    "console-no-human": "At least one player must sit at the keyboard.",
    "console-add-bots": "Playing alone? Add bots: --bots 1:normal (seat 1, level normal).",
    "console-bad-bots": "Bots refused: `{bots}`. Write `seat:level` pairs, seats counted from 0, "
    "e.g. `--bots 1:normal` or `--bots 1:easy,2:hard`. Levels: {levels}.",
    "console-bad-bot-seat": "There is no seat {seat} for a bot: seats go from 0 to {last}, "
    "one bot a seat.",
    "console-bot-name": "Bot {n} ({level})",
    "console-folder": "Images of this game: {path}/",
    "console-board-image": "Board image: {path}",
    "console-hand-image": "Hand {of_who}: {path}",
    "console-spots": "{count} spots: the numbered outlines are in {path}. "
    "Type the number of a spot.",
    "console-menu-trail": "» {path}",
    "console-hint": "Type a number, a move in the game's notation, or help.",
    "console-hint-flat": "Type a move, its number, or help.",
    "console-hint-menu": "Type a number, a complete move, back (one level up) or help.",
    "console-bad-number": "No such choice: type a number from 1 to {last}.",
    "console-did-you-mean": "Did you mean: {moves}?",
    "console-see-moves": "Type moves to see your choices.",
    "console-pass": "Pass the keyboard to {who}, then press Enter.",
    "console-quit-confirm": "Leave the match? It is lost unless --db names a file. (y/n)",
    "console-resign-confirm": "Resign this match? (y/n)",
    "console-bots-stuck": "The bots could not play; the match stops here.",
    "console-no-images": "No images are written (`--no-images`).",
    "console-saved": "Kept: {paths}",
    "console-help": "Commands:\n"
    "  <move>    a move in the game's notation (e.g. 7>1, D, Serf B13P)\n"
    "  <number>  the choice with that number (a menu level opens, or the move is played)\n"
    "  moves     list your choices again\n"
    "  back      one menu level up\n"
    "  board     print the board again and rewrite its image\n"
    "  save      keep a numbered copy of the board and hand images\n"
    "  random    play a random legal move\n"
    "  resign    resign (asks first)\n"
    "  record    print the match record (JSON) so far\n"
    "  help      this list\n"
    "  quit      leave (asks first; the match is lost unless --db names a file)",
    "console-arg-description": "Play gueridon's games in the terminal: against bots or hot-seat.",
    "console-arg-epilog": "Images: one folder per game, `<out>/<game>-<date>-<time>-m<match>/`, "
    "where `board.png`,\n`hand-<seat>.png` and `spots.png` always hold the latest images; the save "
    "command keeps\na numbered copy (`board-v012.png`). Earlier games are never overwritten.\n"
    "Example: `python3 run.py console --game via-belli --players Alice --bots 1:normal`",
    "console-arg-usage": "usage:",
    "console-arg-options-title": "options",
    "console-arg-help": "show this help and exit",
    "console-arg-game": "game id (asked if missing)",
    "console-arg-players": "names of the players at this keyboard, separated by commas "
    "(asked if missing)",
    "console-arg-bots": "bot seats and levels, seats counted from 0, e.g. `1:normal` or "
    "`1:easy,2:hard` (levels: `easy`, `normal`, `hard`); the players take the other seats",
    "console-arg-options": "game options as key=value pairs (asked if missing)",
    "console-arg-lang": "language",
    "console-arg-out": "where the image folders go (default: `console-out`)",
    "console-arg-no-images": "do not write images",
    "console-arg-db": "SQLite file to keep the match in (resumes it if active)",
    "console-arg-seed": "fixed seed (0: random)",
    "reason-occupation": "two abandoned enemy positions occupied",
    "reason-flank": "a vacant position open to a flank attack",
    "reason-annihilation": "no unit left",
    "reason-turn-limit": "turn limit reached",
    "reason-conquest": "castle taken",
    "reason-stalemate": "stalemate: nobody can act any more",
    "reason-other": "end of the match",
}

FR: dict[str, str] = {
    "error-prefix": "⚠️ {message}",
    "internal-error": "Un problème est survenu de notre côté ; rien n'a changé. Réessayez.",
    "unknown-game": "Jeu inconnu `{game}`. Jeux : {games}.",
    "bad-seats": "{game} se joue de {min} à {max} joueurs.",
    "bad-options": "Options refusées : {reason}",
    "channel-busy": "Ce salon a déjà un salon d'attente ou une partie. Terminez-la ou annulez-la.",
    "no-lobby": "Aucun salon d'attente ouvert ici. Ouvrez-en un avec `/lobby create`.",
    "already-joined": "Vous êtes déjà dans ce salon d'attente.",
    "lobby-full": "Ce salon d'attente est complet ({seats} places).",
    "not-in-lobby": "Vous n'êtes pas dans ce salon d'attente.",
    "not-host": "Seul l'hôte peut faire cela (ou un membre avec « Gérer le serveur », "
    "pour annuler).",
    "nothing-to-cancel": "Il n'y a rien à annuler dans ce salon.",
    "not-enough-players": "Il faut au moins {min} joueurs ; {have} inscrits.",
    "bad-level": "Niveau de robot inconnu `{level}` : {levels}.",
    "bad-clock": "Pendule inconnue `{clock}` : {clocks}.",
    "no-bots-for-game": "{game} n'a pas encore de joueurs robots.",
    "lobby-bot-added": "Un robot ({level}) prend une place.",
    "lobby-clock": "Pendule : {clock}",
    "lobby-expired": "Le salon d'attente a expiré : personne ne l'a lancé.",
    "clock-correspondence": "correspondance",
    "clock-fast": "rapide",
    "clock-detail-correspondence": "correspondance : {per_move} par décision",
    "clock-detail-fast": "rapide : {per_move} par décision + {bank} de réserve",
    "opt-clock": "La pendule",
    "level-easy": "facile",
    "level-normal": "normal",
    "level-hard": "difficile",
    "button-addbot": "Ajouter un robot",
    "reminder-dm": "⏰ Partie n°{match} dans {channel} : c'est à vous de décider, il reste "
    "environ {left} avant qu'un robot décide pour vous.",
    "reminder-mention": "⏰ {user}, c'est à vous de décider : il reste environ {left} "
    "avant qu'un robot décide pour vous.",
    "time-second": "{count} seconde",
    "time-seconds": "{count} secondes",
    "time-minute": "{count} minute",
    "time-minutes": "{count} minutes",
    "time-hour": "{count} heure",
    "time-hours": "{count} heures",
    "time-hours-minutes": "{hours} et {minutes}",
    "name-clock": "pendule",
    "lobby-title": "{game} : salon d'attente",
    "lobby-body": "Hôte : {host}\nJoueurs ({count}/{seats}) : {players}\nOptions : {options}",
    "lobby-default-options": "par défaut",
    "lobby-cancelled": "Salon d'attente annulé.",
    "lobby-opened": "Salon d'attente de {game} ouvert : les autres rejoignent avec le bouton "
    "Rejoindre.",
    "lobby-started": "La partie commence : {players}.",
    "lobby-joined": "{user} a rejoint le salon d'attente.",
    "lobby-left": "{user} a quitté le salon d'attente.",
    "button-join": "Rejoindre",
    "button-leave": "Quitter",
    "button-start": "Lancer",
    "button-cancel": "Annuler",
    "no-match": "Aucune partie en cours dans ce salon.",
    "no-such-match": "La partie n°{match} n'existe pas.",
    "match-closed": "Cette partie a été annulée.",
    "not-seated": "Vous n'avez pas de place dans cette partie.",
    "not-your-turn": "Ce n'est pas à vous de décider maintenant.",
    "stale": "Le plateau a changé entre-temps ; regardez à nouveau.",
    "game-over": "Cette partie est terminée.",
    "already-resigned": "Vous avez déjà abandonné.",
    "illegal": "Coup refusé : {reason}",
    "match-cancelled": "La partie n°{match} a été annulée par {user}.",
    "match-title": "{game} — partie n°{match}",
    "to-act": "{who} : {what}",
    "your-turn": "À vous de jouer",
    "played": "{user} a joué `{move}`.",
    "resigned": "{user} abandonne.",
    "move-accepted": "Coup joué : `{move}`.",
    "resign-accepted": "Vous avez abandonné.",
    "result-title": "Partie terminée",
    "result-line": "{place}. {user}",
    "result-reason": "Raison : {reason}",
    "seed-reveal": "Graine : `{seed}` (SHA-256 publié au début : `{sha}`). "
    "Chacun peut rejouer la partie et vérifier chaque mélange.",
    "seed-commit": "Engagement de la graine (SHA-256) : `{sha}`",
    "dm-closed": "{user}, je ne peux pas vous envoyer votre main en message privé "
    "(MP fermés). Utilisez `/hand` pour la voir ici en privé.",
    "hand-title": "Votre main — {game} n°{match}",
    "hand-not-your-turn": "Pas votre tour : {what}",
    "spectator": "Vous regardez : vous n'avez pas de place dans cette partie.",
    "choose-action": "Choisissez une action…",
    "more-actions": "{count} autres coups : tapez-les avec `/play`.",
    "menu-choose": "Choisissez…",
    "menu-choose-range": "Choisissez ({first}–{last} sur {count})…",
    "menu-next-page": "Autres choix ({first}–{last} sur {count})…",
    "menu-level": "**{path}**\nChoix suivant :",
    "menu-spots": "Les contours numérotés sont les places possibles (vous seul voyez cette image).",
    "earlier-lines": "· … {count} lignes précédentes non affichées",
    "board-reposted": "Plateau publié.",
    "no-board": "Aucun plateau à montrer.",
    "cmd-lobby": "Ouvrir, rejoindre et lancer des parties",
    "cmd-lobby-create": "Ouvrir un salon d'attente pour un jeu dans ce salon",
    "cmd-lobby-join": "Rejoindre le salon d'attente de ce salon",
    "cmd-lobby-leave": "Quitter le salon d'attente de ce salon",
    "cmd-lobby-start": "Lancer la partie (hôte seulement)",
    "cmd-lobby-cancel": "Annuler le salon d'attente ou la partie de ce salon",
    "cmd-lobby-addbot": "Ajouter un joueur robot",
    "cmd-play": "Jouer un coup dans la notation du jeu",
    "cmd-hand": "Voir votre main et vos coups possibles, en privé",
    "cmd-board": "Republier le plateau actuel",
    "cmd-resign": "Abandonner votre partie dans ce salon",
    "cmd-rules": "Résumé des règles et options d'un jeu",
    "cmd-help": "La liste des commandes",
    "opt-game": "Le jeu",
    "opt-seats": "Nombre de places",
    "opt-options": "Options sous la forme clé=valeur",
    "opt-move": "Votre coup, par ex. 7>1",
    "opt-level": "Niveau du robot",
    "help-text": "**Gueridon** accueille des jeux de cartes français.\n"
    "`/lobby create game:<jeu> [seats] [options]` ouvrir un salon d'attente ici · "
    "`/lobby join` · `/lobby leave` · `/lobby start` · `/lobby cancel`\n"
    "`/play move:<coup>` jouer (l'autocomplétion propose vos coups) · "
    "`/hand` votre main, en privé · `/board` republier le plateau · `/resign` abandonner\n"
    "`/rules game:<jeu>` résumé des règles et options · `/help` cette liste\n"
    "`/leaderboard game:<jeu>` classement · `/stats [joueur]` bilan et courbe · "
    "`/history [joueur] [jeu]` parties récentes · `/replay match:<n°>` enregistrement et "
    "visionneuse\n"
    "Votre main arrive aussi en message privé, avec des boutons pour vos coups.",
    "rules-title": "{game} — règles",
    "rules-options": "Options (clé = défaut) : {options}",
    "rules-in-force": "Options en vigueur ici : {options}",
    "rules-seats": "{min} à {max} joueurs",
    "rules-doc": "Règles complètes : docs/rules/{game}.md",
    "cmd-leaderboard": "Le classement d'un jeu",
    "cmd-stats": "Le bilan d'un joueur et l'évolution de son classement",
    "cmd-history": "Les parties récentes",
    "cmd-replay": "L'enregistrement d'une partie (JSON) et une visionneuse pas à pas",
    "opt-scope": "Ce serveur ou tous les serveurs",
    "opt-user": "Le joueur (par défaut : vous)",
    "opt-match": "Le numéro de la partie",
    "scope-server": "ce serveur",
    "scope-global": "tous les serveurs",
    "leaderboard-title": "{game} — classement",
    "leaderboard-subtitle": "{scope} · provisoire sous {n} parties",
    "stats-title": "{user} — statistiques",
    "stats-line": "**{game}** : {played} jouées, {won} gagnées, place moyenne {avg:.1f}",
    "stats-rating": "classement {scope} : **{rating}**{mark} ({games} classées)",
    "stats-bots": "contre des robots : {rating} ({games})",
    "stats-none": "{user} n'a pas encore terminé de partie.",
    "stats-chart": "{user} — classement",
    "provisional-mark": " (provisoire)",
    "history-title": "Parties récentes",
    "history-none": "Aucune partie terminée pour l'instant.",
    "history-line": "n°{match} {game} · {date} · {players} · {reason}",
    "resigned-mark": "abandon",
    "bot-mark": "robot",
    "replay-title": "Rediffusion de la partie n°{match} — {game}",
    "replay-step": "Étape {step}/{total}",
    "replay-start": "La donne",
    "replay-hidden": "Les informations cachées le restent : c'est ce qu'un spectateur a vu.",
    "replay-file": "L'enregistrement (version du moteur, options, graine, coups) rejoue "
    "la même partie.",
    "replay-live": "La partie est en cours : les coups et la graine seront révélés à la fin.",
    "rematch": "Revanche",
    "rematch-not-over": "La partie n'est pas encore terminée.",
    "rematch-opened": "Revanche : un nouveau salon d'attente avec les mêmes joueurs et options.",
    "button-first": "Début",
    "button-prev": "Retour",
    "button-next": "Suivant",
    "button-last": "Fin",
    "button-page-prev": "Page précédente",
    "button-page-next": "Page suivante",
    "name-leaderboard": "classement",
    "name-stats": "statistiques",
    "name-history": "historique",
    "name-replay": "rediffusion",
    "name-scope": "portée",
    "name-user": "joueur",
    "name-match": "partie",
    # French names of the commands and options (the English ones are fixed)
    "name-lobby": "salon",
    "name-create": "créer",
    "name-join": "rejoindre",
    "name-leave": "quitter",
    "name-start": "lancer",
    "name-cancel": "annuler",
    "name-addbot": "ajouter-robot",
    "name-play": "jouer",
    "name-hand": "main",
    "name-board": "plateau",
    "name-resign": "abandonner",
    "name-rules": "règles",
    "name-help": "aide",
    "name-game": "jeu",
    "name-seats": "places",
    "name-options": "options",
    "name-move": "coup",
    "name-level": "niveau",
    "reason-coup-fatal": "coup fatal",
    "reason-knockout": "K.-O.",
    "reason-exhausted": "plus de cartes",
    "reason-resign": "abandon",
    # la console (bot/console.py)
    "console-games": "Jeux :",
    "console-ask-game": "Jeu",
    "console-ask-players": "Joueurs à ce clavier (séparés par des virgules)",
    "console-ask-options": "Options (clé=valeur)",
    "console-no-human": "Il faut au moins un joueur au clavier.",
    "console-add-bots": "Seul ? Ajoutez des robots : --bots 1:normal (place 1, niveau normal).",
    "console-bad-bots": "Robots refusés : `{bots}`. Écrivez des paires `place:niveau`, places "
    "comptées à partir de 0, par ex. `--bots 1:normal` ou `--bots 1:easy,2:hard`. "
    "Niveaux : {levels}.",
    "console-bad-bot-seat": "Il n'y a pas de place {seat} pour un robot : les places vont de 0 "
    "à {last}, un robot par place.",
    "console-bot-name": "Robot {n} ({level})",
    "console-folder": "Images de cette partie : {path}/",
    "console-board-image": "Image du plateau : {path}",
    "console-hand-image": "Main {of_who} : {path}",
    "console-spots": "{count} places : les contours numérotés sont dans {path}. "
    "Tapez le numéro d'une place.",
    "console-menu-trail": "» {path}",
    "console-hint": "Tapez un numéro, un coup dans la notation du jeu, ou aide.",
    "console-hint-flat": "Tapez un coup, son numéro, ou aide.",
    "console-hint-menu": "Tapez un numéro, un coup complet, retour (niveau précédent) ou aide.",
    "console-bad-number": "Ce choix n'existe pas : tapez un numéro de 1 à {last}.",
    "console-did-you-mean": "Vouliez-vous dire : {moves} ?",
    "console-see-moves": "Tapez coups pour revoir vos choix.",
    "console-pass": "Passez le clavier à {who}, puis appuyez sur Entrée.",
    "console-quit-confirm": "Quitter la partie ? Elle est perdue sauf si --db désigne un "
    "fichier. (o/n)",
    "console-resign-confirm": "Abandonner cette partie ? (o/n)",
    "console-bots-stuck": "Les robots n'ont pas pu jouer ; la partie s'arrête ici.",
    "console-no-images": "Aucune image n'est écrite (`--no-images`).",
    "console-saved": "Gardé : {paths}",
    "console-help": "Commandes :\n"
    "  <coup>    un coup dans la notation du jeu (ex. 7>1, D, Serf B13P)\n"
    "  <numéro>  le choix qui porte ce numéro (un niveau du menu s'ouvre, ou le coup est joué)\n"
    "  coups     réafficher vos choix\n"
    "  retour    remonter d'un niveau du menu\n"
    "  plateau   réafficher le plateau et réécrire son image\n"
    "  garder    garder une copie numérotée des images du plateau et de la main\n"
    "  hasard    jouer un coup légal au hasard\n"
    "  abandon   abandonner (demande confirmation)\n"
    "  record    afficher l'enregistrement de la partie (JSON)\n"
    "  aide      cette liste\n"
    "  quitter   quitter (demande confirmation ; la partie est perdue sauf si --db désigne "
    "un fichier)",
    "console-arg-description": "Jouer aux jeux de gueridon dans le terminal : contre des robots "
    "ou à plusieurs au même clavier.",
    "console-arg-epilog": "Images : un dossier par partie, `<out>/<jeu>-<date>-<heure>-m<partie>/`, "
    "où `board.png`,\n`hand-<place>.png` et `spots.png` contiennent toujours les dernières images ; "
    "la commande garder\nen garde une copie numérotée (`board-v012.png`). Les parties précédentes "
    "ne sont jamais écrasées.\n"
    "Exemple : `python3 run.py console --game via-belli --players Alice --bots 1:normal --lang fr`",
    "console-arg-usage": "utilisation :",
    "console-arg-options-title": "options ",
    "console-arg-help": "afficher cette aide et quitter",
    "console-arg-game": "identifiant du jeu (demandé s'il manque)",
    "console-arg-players": "noms des joueurs à ce clavier, séparés par des virgules "
    "(demandés s'ils manquent)",
    "console-arg-bots": "places et niveaux des robots, places comptées à partir de 0, par ex. "
    "`1:normal` ou `1:easy,2:hard` (niveaux : `easy`, `normal`, `hard`) ; les joueurs prennent les "
    "autres places",
    "console-arg-options": "options du jeu, paires clé=valeur (demandées si elles manquent)",
    "console-arg-lang": "langue",
    "console-arg-out": "où vont les dossiers d'images (par défaut : `console-out`)",
    "console-arg-no-images": "n'écrire aucune image",
    "console-arg-db": "fichier SQLite où garder la partie (la reprend si elle est en cours)",
    "console-arg-seed": "graine fixe (0 : au hasard)",
    "reason-occupation": "deux positions ennemies abandonnées occupées",
    "reason-flank": "une position vacante prise de flanc",
    "reason-annihilation": "plus aucune unité",
    "reason-turn-limit": "limite de tours atteinte",
    "reason-conquest": "château pris",
    "reason-stalemate": "blocage : plus personne ne peut agir",
    "reason-other": "fin de la partie",
}

CATALOGUES = {"en": EN, "fr": FR}


def lang(locale: str | None) -> str:
    """``"fr"`` for any French locale, else ``"en"``."""
    return "fr" if locale and str(locale).lower().startswith("fr") else "en"


def t(locale: str | None, key: str, **params: Any) -> str:
    catalogue = CATALOGUES[lang(locale)]
    template = catalogue.get(key) or EN.get(key) or key
    try:
        return template.format(**params)
    except (KeyError, IndexError):
        return template


def duration_text(locale: str | None, seconds: float) -> str:
    """A remaining time as a player reads it: whole seconds under a minute,
    then minutes, then hours (with the minutes under ten hours); never
    "0", and singular for 1 in both languages."""
    whole = max(1, round(seconds))
    if whole < 60:
        return t(locale, "time-second" if whole == 1 else "time-seconds", count=whole)
    minutes = round(seconds / 60)
    if minutes < 60:
        return t(locale, "time-minute" if minutes == 1 else "time-minutes", count=minutes)
    hours, rest = divmod(minutes, 60)
    if hours >= 10 or rest == 0:
        hours = round(seconds / 3600)
        return t(locale, "time-hour" if hours == 1 else "time-hours", count=hours)
    return t(
        locale,
        "time-hours-minutes",
        hours=t(locale, "time-hour" if hours == 1 else "time-hours", count=hours),
        minutes=t(locale, "time-minute" if rest == 1 else "time-minutes", count=rest),
    )


def reason_text(locale: str | None, reason: str) -> str:
    """Why a match ended (``Outcome.reason`` or the stored result reason), never a raw key."""
    key = f"reason-{reason}"
    if key in CATALOGUES[lang(locale)] or key in EN:
        return t(locale, key)
    return t(locale, "reason-other")


def result_lines(locale: str | None, outcome: Any, names: Sequence[str]) -> list[str]:
    """The end of a match: the title, one line per place (tied seats share a
    place), and the reason. Used by the final board and the console."""
    lines = [t(locale, "result-title")]
    place = 1
    for group in outcome.ranking:
        for seat in group:
            lines.append(t(locale, "result-line", place=place, user=names[seat]))
        place += len(group)
    lines.append(t(locale, "result-reason", reason=reason_text(locale, outcome.reason)))
    return lines


def history_line(
    locale: str | None,
    match_id: int,
    game_name: str,
    date: str,
    seats: Sequence[tuple[str, int, bool, bool]],
    reason: str,
) -> str:
    """One ``/history`` line; ``seats`` are (name, place, resigned, bot)."""
    players = ", ".join(
        f"{place}. {name}"
        + (f" ({t(locale, 'resigned-mark')})" if resigned else "")
        + (f" ({t(locale, 'bot-mark')})" if bot else "")
        for name, place, resigned, bot in seats
    )
    return t(
        locale,
        "history-line",
        match=match_id,
        game=game_name,
        date=date,
        players=players,
        reason=reason_text(locale, reason),
    )


def rules_text(
    locale: str | None, info: Any, in_force: str | None = None, details: str = ""
) -> str:
    """The ``/rules`` text of a game (``info`` is its ``GameInfo``); ``in_force``
    is the options text of the match in the channel, "" for the defaults;
    ``details`` is the game's own longer text (``Game.rules_details``)."""
    summary = info.summary_fr if lang(locale) == "fr" else info.summary_en
    defaults = info.options_model()
    opts = ", ".join(
        f"`{name}={option_value_text(getattr(defaults, name))}`"
        for name in info.options_model.model_fields
    )
    parts = [
        summary,
        t(locale, "rules-seats", min=info.min_seats, max=info.max_seats),
        t(locale, "rules-options", options=opts),
    ]
    if in_force is not None:
        parts.append(
            t(
                locale,
                "rules-in-force",
                options=f"`{in_force or t(locale, 'lobby-default-options')}`",
            )
        )
    if details:
        parts.append(details)
    parts.append(t(locale, "rules-doc", game=info.id))
    return "\n\n".join(parts)


def option_value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return ",".join(map(str, value)) or "—"
    return "—" if value is None else str(value)


def error_text(locale: str | None, key: str, rules: Any = None, **params: Any) -> str:
    """The message for a :class:`bot.service.HostError`."""
    if rules is not None:
        params = {**params, "reason": rules.message(lang(locale))}
    return t(locale, key, **params)
