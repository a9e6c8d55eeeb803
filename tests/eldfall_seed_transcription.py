"""A verbatim copy of every table (and the heading above it) of the Eldfall
seed pages, for when ``../shared/seeds`` is absent. Generated from the seeds;
``test_transcription_matches_seeds`` checks it still matches them."""

TRANSCRIPTION = {
    'eldfall-actions.txt': r"""== Activation Sequence ==
{| class="wikitable" style="width:100%"
! Step !! Name !! Who Acts !! What Happens
|-
| 1 || Activation Step || Active Player || Spends 1 AP to activate a model. Any relevant Effects trigger immediately.
|-
| 2 || Movement Step || Active Player || Declares Normal or Special Movement. May enter/cancel [[Crouched]] State at start or end of this step.
|-
| 3 || Reaction Step || Reactive Player || Declares Reactions (Normal Actions only) against the Activated model.
|-
| 4 || Action Step || Active Player || Declares a Normal or Special Action.
|-
| 5 || Resolution Step || Both || Applies modifiers, rolls dice, resolves Confrontation, Damage Rolls, Effects, States.
|}
== Movements ==
=== Normal Movement ===
{| class="wikitable" style="width:100%"
! Movement !! Distance !! Notes
|-
| '''Idle''' || 0 || The model does not move. May rotate to change Line of Sight direction. Required to declare a Special Action in the Action Step.
|-
| '''Walk''' || Up to SPD || Standard movement in any direction.
|-
| '''Run''' || Up to SPD ×2 || Model may only declare '''Nothing''' as its Action. Triggers Engagement zones as normal.
|}
=== Special Movement ===
{| class="wikitable" style="width:100%"
! Movement !! Distance !! Requirement !! Notes
|-
| '''[[Climb]]''' || SPD ÷ 2 (rounded up) || -- || Allows moving over obstacles higher than the model's Hitbox. Model cannot take any Action while on a vertical surface (falls if it tries). May end movement on a vertical surface.
|-
| '''[[Jump]]''' || SPD ÷ 2 (horizontal/vertical/diagonal/parabolic) || — || Allows crossing gaps, reaching elevated ground, clearing obstacles higher than Hitbox. If the gap is too large but the Hitbox reaches the ledge, model is placed at the edge (pulls up). If gap is too large and Hitbox doesn't reach: model falls and takes Fall Damage.
|-
| '''[[Run]]''' || SPD ×2 || — || Model may only declare Nothing as its Action. Some Skills interact with Run (e.g. [[Dash]], [[Trample]]).
|}
== Normal Actions ==
=== Attack ===
==== Melee Attack ====
==== Ranged Attack ====
==== Spell Attack ====
{| class="wikitable" style="width:100%"
! Type !! Duration !! Role !! Notes
|-
| '''Sorcery''' || Until end of Activation Sequence || Active or Reactive || Destructive, short-lasting effects. Delivered as Attack.
|-
| '''Healing''' || Until end of Activation Sequence || Active only || Restorative effects. Cast only in Active Role.
|-
| '''Enchantment''' || Until caster's next Strategic Phase || Active only || Bolsters or weakens the target. Cannot be Dodged. Max 1 Enchantment of same name per model. If PW = ✯: target's Attacks gain the Spell type.
|-
| '''Conjuration''' || Permanent (until caster dies) || Active only (via [[Ritual]]) || Summons a creature. Requires Mana Cost. Creature is removed when caster becomes Incapacitated/Dead.
|-
| '''Transmutation''' || Permanent || Active only || Affects the environment. Remains on the field until removed or destroyed.
|}
==== Area of Effect (AoE) Attacks ====
{| class="wikitable" style="width:100%"
! Template Type !! Coverage !! Height !! Notes
|-
| '''Circular S''' (d=70mm) || Target must be fully covered || ±3" above/below center || LoS required between AoE center and each affected model.
|-
| '''Circular L''' (d=120mm) || Target must be fully covered || ±3" above/below center || LoS required between AoE center and each affected model.
|-
| '''Spray S''' (213mm) || Target must be fully covered || ±5" above/below attacker || Narrow end at attacker's base. LoS required attacker → each model.
|-
| '''Spray L''' (260mm) || Target must be fully covered || ±5" above/below attacker || Narrow end at attacker's base. LoS required attacker → each model.
|}
=== Assist ===
=== Death Blow ===
=== Dodge ===
=== Interact ===
=== Nothing ===
=== Perceive ===
=== Trade ===
== Special Actions ==
=== Issue a Duel ===
=== Ritual ===
=== Uncover ===
== Action Availability by Situation ==
=== By Role ===
{| class="wikitable" style="width:100%"
! Action !! Active Role !! Reactive Role !! Notes
|-
| Melee Attack || ✓ || ✓ || Reactive STK = 1. Requires Melee Weapon in Reach.
|-
| Ranged Attack || ✓ || ✓ || Reactive STK = 1. Must declare point on movement path.
|-
| Spell Attack || ✓ || ✓ || Reactive STK = 1. [[Enchantment]] Spells: Active Role only.
|-
| Assist || ✓ || ✓ || Reactive: may target other allies. Engaged: self only.
|-
| Dodge || ✓ || ✓ || Reactive: needs LoS or Awareness. Halved AG without LoS.
|-
| Perceive || ✓ || ✓ || Target within Awareness.
|-
| Interact || ✓ || ✓ || Must be in Base Contact with quest object.
|-
| Trade || ✓ || ✗ || Active Role only (not a valid Reaction).
|-
| Nothing || ✓ || ✓ || Always available.
|-
| Death Blow || ✓ || ✗ || Active Role only. No roll needed.
|-
| Issue a Duel || ✓ || ✗ || Special Action. Active Role only.
|-
| Ritual || ✓ || ✗ || Special Action. Requires Idle movement.
|-
| Uncover || ✓ || ✗ || Special Action. Requires Idle movement.
|}
=== By State ===
{| class="wikitable" style="width:100%"
! State !! Allowed Actions !! Forbidden Actions
|-
| [[Engaged]] || Melee Attack, Assist (self only), Dodge || Ranged Attack, Interact, Trade, Perceive (against non-Activated model)
|-
| [[Crouched]] || All (STK capped at 1) || —
|-
| [[Blinded]] || Assist (self), Dodge, Nothing || Attack (no LoS), Perceive (no LoS), Interact, Trade
|-
| [[Immobilized]] || Dodge (AG or T), Nothing || All other Actions; also cannot move after Dodge unless successful
|-
| [[Incapacitated]] || — || All Actions and Reactions
|-
| [[Dead]] || — || All Actions and Reactions
|-
| [[Panicked]] (failed M roll, Reactive) || Dodge (toward edge), Nothing || All other Reactions
|-
| [[Panicked]] (failed M roll, Active) || Forced Run toward edge || No other Actions/Movements
|-
| [[Flying]] || All (Melee STK = 1) || Engage others; become Crouched voluntarily
|-
| [[Shrouded]] || Nothing, Dodge, Attack (reveals self + Surprise Attack) || Be targeted by Actions other than Perceive
|}
=== Run / Special Movement Restriction ===
{| class="wikitable" style="width:100%"
! Movement Declared !! Allowed Actions !! Forbidden Actions
|-
| Walk || All Normal Actions || —
|-
| Idle || All Normal Actions + '''Special Actions''' (Ritual, Duel, Uncover) || —
|-
| Run || Nothing only || All other Actions
|-
| Climb || Nothing only || All other Actions
|-
| Jump || Nothing only || All other Actions
|}
== Recovery Check ==
""",
    'eldfall-actions-attack-section.txt': r"""=== Attack ===
==== Melee Attack ====
==== Ranged Attack ====
==== Spell Attack ====
{| class="wikitable" style="width:100%"
! Type !! Duration !! Role !! Notes
|-
| '''Sorcery''' || Until end of Activation Sequence || Active or Reactive || Destructive, short-lasting effects. Delivered as Attack.
|-
| '''Healing''' || Until end of Activation Sequence || Active only || Restorative effects. Cast only in Active Role.
|-
| '''Enchantment''' || Until caster's next Strategic Phase || Active only || Bolsters or weakens the target. Cannot be Dodged. Max 1 Enchantment of same name per model. If PW = ✯: target's Attacks gain the Spell type.
|-
| '''Conjuration''' || Permanent (until caster dies) || Active only (via [[Ritual]]) || Summons a creature. Requires Mana Cost. Creature is removed when caster becomes Incapacitated/Dead.
|-
| '''Transmutation''' || Permanent || Active only || Affects the environment. Remains on the field until removed or destroyed.
|}
==== Area of Effect (AoE) Attacks ====
{| class="wikitable" style="width:100%"
! Template Type !! Coverage !! Height !! Notes
|-
| '''Circular S''' (d=70mm) || Target must be fully covered || ±3" above/below center || LoS required between AoE center and each affected model.
|-
| '''Circular L''' (d=120mm) || Target must be fully covered || ±3" above/below center || LoS required between AoE center and each affected model.
|-
| '''Spray S''' (213mm) || Target must be fully covered || ±5" above/below attacker || Narrow end at attacker's base. LoS required attacker → each model.
|-
| '''Spray L''' (260mm) || Target must be fully covered || ±5" above/below attacker || Narrow end at attacker's base. LoS required attacker → each model.
|}
""",
    'eldfall-reactions.txt': r"""
Available Reactions (Normal Actions)
Reaction	Requires LoS?	Requires Awareness?	Notes
Attack (Melee)	Yes	—	Target must be within Melee RCH. Triggers Confrontation if Active model also attacks.
Attack (Ranged)	Yes	—	Must specify exact point on movement path where the attack is targeted.
Dodge	No (Awareness only)	Yes	AG roll. No LoS needed if target within Awareness — but AG is halved if LoS was never established.
Assist (self only)	—	—	When Engaged, a model may only Assist itself.
Perceive	Yes	Within Awareness	INT roll to reveal a Shrouded or Hidden token.
Nothing	—	—	The model spends 1 AP but does nothing. Mandatory when unable to react.
Interact	—	Base Contact	Model must be in Base Contact with the quest object.
Trade	—	Base Contact	Exchange Items with an ally in Base Contact.

Restrictions by State
State	Can React?	Allowed Reactions	Restrictions
Engaged	Yes	Melee Attack, Dodge, Assist (self only)	Cannot use Ranged Attack while Engaged. Cannot react against models outside Awareness.
Crouched	Yes	Any Normal Action	Normal restrictions apply; STK is 1.
Flying	Yes	Any Normal Action	LoS to all models always established; cannot Engage/be Engaged.
Shrouded	Yes	Dodge (no target required)	Cannot be targeted by Actions other than Perceive. Dodge is valid as it has no target.
Blinded	Yes	Assist, Dodge, Nothing only	No LoS — cannot declare Attack or Perceive.
Panicked	Yes	Dodge (toward field edge) or Nothing only	On a failed M roll in Reactive Role: may only Dodge toward nearest field edge or Nothing.
Immobilized	Yes	Dodge (using AG or T), Nothing	Cannot perform Movement after Dodge. Dodge may be performed with AG or T.
Incapacitated	No	—	Cannot perform Activations or Reactions.
Dead	No	—	Cannot perform Activations or Reactions.
Confused	Yes	Any Normal Action	All stats halved (OFF, DEF, ACC, AG, INT, M).
Weakened	Yes	Any Normal Action	T halved, −1 Stamina.
Slowed	Yes	Any Normal Action	SPD halved (affects Dodge movement distance).
Fatigued	Yes	Any Normal Action	Cannot regain AP during Upkeep Phase.
Bleeding	Yes	Any Normal Action	Must perform T roll each Strategic Phase (not Reaction step).
Poisoned	Yes	Any Normal Action	Must perform T−6 roll each Strategic Phase (not Reaction step).
Crippled	Yes	Any Normal Action	SPD and AG halved.
""",
    'eldfall-states.txt': r"""== Summary Table ==
{| class="wikitable" style="width:100%"
! State !! Can Activate? !! Can React? !! Movement !! Actions Available !! Key Stat Changes !! Removed By
|-
| [[#Bleeding|Bleeding]] || Yes || Yes || Normal || All || — || Specific abilities (Regeneration, healing)
|-
| [[#Blinded|Blinded]] || Yes || Yes || Normal || Assist (self), Dodge, Nothing only || No LoS (except self) || Specific abilities
|-
| [[#Confused|Confused]] || Yes || Yes || Normal || All || OFF, DEF, ACC, INT, AG, M all halved || Specific abilities
|-
| [[#Crippled|Crippled]] || Yes || Yes || Halved SPD || All || SPD and AG halved || Specific abilities
|-
| [[#Crouched|Crouched]] || Yes || Yes || Walk or Idle only || All (STK = 1) || SPD halved, ARM halved, STK = 1 || Voluntary (Movement Step) or Dodge
|-
| [[#Dead|Dead]] || '''No''' || '''No''' || — || — || — || Cannot be removed
|-
| [[#Engaged|Engaged]] || Yes || Yes (limited) || Idle or Walk (toward engager) only || Melee Attack, Assist (self), Dodge only || — || Leave RCH, Dodge (Disengage), or render engager Incapacitated/Crouched/Dead
|-
| [[#Fatigued|Fatigued]] || Yes || Yes || Normal || All || Cannot regain AP in Upkeep || Next Strategic Phase
|-
| [[#Flying|Flying]] || Yes || Yes || Double SPD; over obstacles || All (STK = 1 for Melee) || SPD ×2, Melee STK = 1 || Incapacitated, Dead, Immobilized, Petrified, Crouched; or voluntary
|-
| [[#Immobilized|Immobilized]] || Yes || Yes || '''None''' || Dodge (AG or T), Nothing || — || Successful Dodge
|-
| [[#Incapacitated|Incapacitated]] || '''No''' || '''No''' || — || — || Immediately enters Crouched || Regain ≥1 HP; or next Strategic Phase if caused by effect with HP >0
|-
| [[#Panicked|Panicked]] || Yes (forced) || Yes (limited) || Forced Run toward field edge on failed M roll || Dodge (toward edge) or Nothing on failed M in Reactive Role || — || End of game / specific abilities
|-
| [[#Poisoned|Poisoned]] || Yes || Yes || Normal || All || T roll (−6 mod) each Strategic Phase or suffer Wound || Specific abilities
|-
| [[#Shrouded|Shrouded]] || Yes || Yes (Dodge only freely) || Normal || Attack (reveals self + gains Surprise Attack); Nothing; Dodge || 360° LoS || Declare any Normal Action other than Nothing; or Perceive by enemy
|-
| [[#Slowed|Slowed]] || Yes || Yes || Halved SPD || All || SPD halved || Specific abilities
|-
| [[#Weakened|Weakened]] || Yes || Yes || Normal || All || T halved, −1 Stamina || Next Strategic Phase (Weak Poison); specific abilities
|}
== Detailed Rules Per State ==
=== Bleeding ===
=== Blinded ===
=== Confused ===
=== Crippled ===
=== Crouched ===
=== Dead ===
=== Engaged ===
=== Fatigued ===
=== Flying ===
=== Immobilized ===
=== Incapacitated ===
=== Panicked ===
=== Poisoned ===
=== Shrouded ===
=== Slowed ===
=== Weakened ===
== State Interactions ==
=== Multiple States ===
=== State Priorities ===
{| class="wikitable"
! Situation !! Result
|-
| Model is Flying and becomes Crouched || Flying is '''automatically canceled'''
|-
| Rider's model becomes Crouched || Rider is '''dismounted'''
|-
| Model is Incapacitated (HP = 0) || Immediately enters '''Crouched'''
|-
| Incapacitated model suffers another Wound || Immediately becomes '''Dead'''
|-
| Model is Panicked and Engaged at Activation start || Declares '''Idle''' + '''Dodge'''
|-
| Panicked model would move past field edge || Removed from play (counts as loss)
|-
| Shrouded model declares any Action except Nothing || '''Shrouded State is canceled'''
|-
| Shrouded model declares Attack || Canceled + gains [[Surprise Attack]] on that Attack
|-
| Flying model becomes Immobilized/Petrified/Dead || Flying is '''automatically canceled'''
|}
""",
}
