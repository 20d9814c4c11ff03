/* eslint-disable */
import * as types from './graphql';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
  '\n  query PeopleListing {\n    peopleListing {\n      listed\n      name\n      ratedDebates\n    }\n  }\n': typeof types.PeopleListingDocument;
  '\n  mutation SetPeopleListing($listed: Boolean!, $name: String) {\n    setPeopleListing(listed: $listed, name: $name) {\n      listed\n      name\n      ratedDebates\n    }\n  }\n': typeof types.SetPeopleListingDocument;
  '\n  query Usage {\n    usage {\n      freeDebatesRemaining\n      lastDebateStarted\n      nextFreeDebateAt\n      totalDebates\n      memberSince\n      tokensIn\n      tokensOut\n    }\n  }\n': typeof types.UsageDocument;
  '\n  fragment AuthSessionFields on AuthSession {\n    accessToken\n    expiresIn\n    user {\n      id\n      email\n      displayName\n      photoURL\n      isPro\n      createdAt\n      mustVerifyEmail\n    }\n  }\n': typeof types.AuthSessionFieldsFragmentDoc;
  '\n  mutation RefreshSession {\n    refreshSession {\n      ...AuthSessionFields\n    }\n  }\n': typeof types.RefreshSessionDocument;
  '\n  mutation SignIn($email: String!, $password: String!) {\n    signIn(email: $email, password: $password) {\n      ...AuthSessionFields\n    }\n  }\n': typeof types.SignInDocument;
  '\n  mutation SignUp($email: String!, $password: String!) {\n    signUp(email: $email, password: $password) {\n      ...AuthSessionFields\n    }\n  }\n': typeof types.SignUpDocument;
  '\n  mutation SignInWithProvider($provider: SignInProvider!) {\n    signInWithProvider(provider: $provider)\n  }\n': typeof types.SignInWithProviderDocument;
  '\n  mutation CompleteProviderSignIn($code: String!, $state: String!) {\n    completeProviderSignIn(code: $code, state: $state) {\n      ...AuthSessionFields\n    }\n  }\n': typeof types.CompleteProviderSignInDocument;
  '\n  mutation SignOut {\n    signOut\n  }\n': typeof types.SignOutDocument;
  '\n  mutation SendVerificationEmail {\n    sendVerificationEmail\n  }\n': typeof types.SendVerificationEmailDocument;
  '\n  query CommunityDebates(\n    $category: String\n    $sort: RankingSort\n    $period: RankingPeriod\n    $starredOnly: Boolean\n    $starredIds: [String!]\n    $utcOffsetMinutes: Int\n    $after: String\n  ) {\n    communityDebates(\n      category: $category\n      sort: $sort\n      period: $period\n      starredOnly: $starredOnly\n      starredIds: $starredIds\n      utcOffsetMinutes: $utcOffsetMinutes\n      after: $after\n      limit: 10\n    ) {\n      debates {\n        id\n        topic\n        categories\n        userDisplayName\n        sharedAt\n        upvotes\n        downvotes\n        interesting\n        views\n        myVote\n        starred\n        model1 {\n          ...DebateSpeakerFields\n        }\n        model2 {\n          ...DebateSpeakerFields\n        }\n        verdict {\n          ...VerdictSummaryFields\n        }\n        mindsChanged {\n          ...MindsChangedFields\n        }\n        example\n        stopped\n        rating {\n          text\n        }\n      }\n      next\n    }\n  }\n': typeof types.CommunityDebatesDocument;
  '\n  query CommunityDebate($id: String!) {\n    communityDebate(id: $id) {\n      id\n      topic\n      categories\n      userDisplayName\n      sharedAt\n      upvotes\n      downvotes\n      interesting\n      views\n      model1 {\n        ...DebateSpeakerFields\n      }\n      model2 {\n        ...DebateSpeakerFields\n      }\n      rounds {\n        ...DebateRoundFields\n      }\n      verdict {\n        ...DebateVerdictFields\n      }\n      mindsChanged {\n        ...MindsChangedFields\n      }\n      example\n      stopped\n      rating {\n        text\n      }\n      myVote\n      standBefore\n      askBefore\n      pairedWith {\n        id\n        isRematch\n        model1 {\n          ...DebateSpeakerFields\n        }\n        model2 {\n          ...DebateSpeakerFields\n        }\n        verdict {\n          ...VerdictSummaryFields\n        }\n      }\n    }\n  }\n': typeof types.CommunityDebateDocument;
  '\n  fragment MindsChangedFields on MindsChanged {\n    readers\n    shares {\n      before {\n        for\n        against\n        undecided\n      }\n      after {\n        for\n        against\n      }\n      gain {\n        for\n        against\n      }\n      gainedReaders {\n        for\n        against\n      }\n      winner\n    }\n  }\n': typeof types.MindsChangedFieldsFragmentDoc;
  '\n  mutation Vote($debateId: String!, $kind: VoteKind) {\n    vote(debateId: $debateId, kind: $kind) {\n      debateId\n      upvotes\n      downvotes\n      interesting\n      myVote\n      mindsChanged {\n        ...MindsChangedFields\n      }\n    }\n  }\n': typeof types.VoteDocument;
  '\n  mutation StandBefore($debateId: String!, $stance: StanceBefore) {\n    standBefore(debateId: $debateId, stance: $stance) {\n      debateId\n      standBefore\n      mindsChanged {\n        ...MindsChangedFields\n      }\n    }\n  }\n': typeof types.StandBeforeDocument;
  '\n  mutation ToggleStar($debateId: String!, $starred: Boolean) {\n    toggleStar(debateId: $debateId, starred: $starred)\n  }\n': typeof types.ToggleStarDocument;
  '\n  query Categories {\n    categories\n  }\n': typeof types.CategoriesDocument;
  '\n  mutation MergeStars($debateIds: [String!]!) {\n    mergeStars(debateIds: $debateIds)\n  }\n': typeof types.MergeStarsDocument;
  '\n  fragment WrittenByFields on WrittenBy {\n    kind\n    modelId\n    label\n    serverModel\n    tokensIn\n    tokensOut\n    firstTokenMs\n    totalMs\n    turns\n    failedTurns\n  }\n': typeof types.WrittenByFieldsFragmentDoc;
  '\n  fragment TeamNotesFields on TeamNotes {\n    searched\n    evidence {\n      title\n      url\n    }\n    plan\n    review\n    fixes\n    revised\n    steps\n  }\n': typeof types.TeamNotesFieldsFragmentDoc;
  '\n  fragment DebateSpeakerFields on DebateSpeaker {\n    name\n    stance\n    rhetoricStyle\n    writtenBy {\n      ...WrittenByFields\n    }\n  }\n': typeof types.DebateSpeakerFieldsFragmentDoc;
  '\n  fragment DebateRoundFields on DebateRound {\n    speaker\n    round\n    text\n    summary\n    team {\n      ...TeamNotesFields\n    }\n    writtenBy {\n      ...WrittenByFields\n    }\n  }\n': typeof types.DebateRoundFieldsFragmentDoc;
  '\n  fragment DebateVerdictFields on DebateVerdict {\n    winner\n    tie\n    tieReason\n    firstTotal\n    secondTotal\n    scores {\n      speaker\n      criterion\n      score\n      reason\n    }\n    readings {\n      order\n      winner\n      firstTotal\n      secondTotal\n    }\n    judgedBy {\n      ...WrittenByFields\n    }\n  }\n': typeof types.DebateVerdictFieldsFragmentDoc;
  '\n  fragment VerdictSummaryFields on DebateVerdict {\n    winner\n    tie\n    firstTotal\n    secondTotal\n  }\n': typeof types.VerdictSummaryFieldsFragmentDoc;
  '\n  query MyDebates($search: String, $category: String, $order: String, $after: String) {\n    myDebates(search: $search, category: $category, order: $order, after: $after, limit: 10) {\n      debates {\n        id\n        topic\n        categories\n        userDisplayName\n        timestamp\n        sharedAt\n        isPublic\n        upvotes\n        downvotes\n        model1 {\n          ...DebateSpeakerFields\n        }\n        model2 {\n          ...DebateSpeakerFields\n        }\n        verdict {\n          ...VerdictSummaryFields\n        }\n        rematchOf\n        moderatorEnabled\n        stopped\n      }\n      total\n      next\n    }\n  }\n': typeof types.MyDebatesDocument;
  '\n  query MyDebate($id: String!) {\n    myDebate(id: $id) {\n      id\n      topic\n      categories\n      userDisplayName\n      sharedAt\n      upvotes\n      downvotes\n      model1 {\n        ...DebateSpeakerFields\n      }\n      model2 {\n        ...DebateSpeakerFields\n      }\n      rounds {\n        ...DebateRoundFields\n      }\n      verdict {\n        ...DebateVerdictFields\n      }\n    }\n  }\n': typeof types.MyDebateDocument;
  '\n  query UnsavedDebate {\n    unsavedDebate {\n      runId\n      topic\n      model1 {\n        ...DebateSpeakerFields\n      }\n      model2 {\n        ...DebateSpeakerFields\n      }\n      rounds {\n        ...DebateRoundFields\n      }\n      verdict {\n        ...DebateVerdictFields\n      }\n      moderatorEnabled\n      rematchOf\n      stopped\n    }\n  }\n': typeof types.UnsavedDebateDocument;
  '\n  mutation SaveDebate($runId: String!, $categories: [String!]!) {\n    saveDebate(runId: $runId, categories: $categories) {\n      id\n    }\n  }\n': typeof types.SaveDebateDocument;
  '\n  mutation ShareDebate($id: String!) {\n    shareDebate(id: $id) {\n      id\n      isPublic\n    }\n  }\n': typeof types.ShareDebateDocument;
  '\n  mutation UnshareDebate($id: String!) {\n    unshareDebate(id: $id) {\n      id\n      isPublic\n    }\n  }\n': typeof types.UnshareDebateDocument;
  '\n  query Catalog {\n    catalog {\n      categories\n      rhetoricStyles\n      debateFormats\n      models {\n        id\n        label\n        kind\n        status\n        speakerMode\n      }\n      searcher\n      localModel {\n        status\n        name\n        progress\n      }\n      roundTitles\n      topics\n    }\n  }\n': typeof types.CatalogDocument;
  '\n  mutation StartDebate($settings: DebateSettingsInput!) {\n    startDebate(settings: $settings)\n  }\n': typeof types.StartDebateDocument;
  '\n  mutation StartRematch($debateId: String!) {\n    startRematch(debateId: $debateId)\n  }\n': typeof types.StartRematchDocument;
  '\n  subscription DebateRun($id: String!) {\n    debateRun(id: $id) {\n      type\n      seq\n      at\n      topic\n      firstStance\n      secondStance\n      firstModel {\n        id\n        label\n        kind\n      }\n      secondModel {\n        id\n        label\n        kind\n      }\n      model {\n        id\n        label\n        kind\n      }\n      writtenBy {\n        ...WrittenByFields\n      }\n      turn\n      speaker\n      round\n      roundTitle\n      text\n      summary\n      failed\n      cutOff\n      stage\n      team {\n        ...TeamNotesFields\n      }\n      judge {\n        id\n        label\n        kind\n      }\n      verdict {\n        ...DebateVerdictFields\n      }\n      message\n      freeDebateUsed\n      minWords\n      maxWords\n      deadline\n      stopReason\n    }\n  }\n': typeof types.DebateRunDocument;
  '\n  mutation StopDebate($runId: String!) {\n    stopDebate(runId: $runId) {\n      stopped\n      freeDebateUsed\n    }\n  }\n': typeof types.StopDebateDocument;
  '\n  mutation SubmitTurn($runId: String!, $turn: Int!, $text: String!) {\n    submitTurn(runId: $runId, turn: $turn, text: $text)\n  }\n': typeof types.SubmitTurnDocument;
  '\n  fragment JudgeFigureFields on JudgeFigure {\n    value\n    low\n    high\n    count\n  }\n': typeof types.JudgeFigureFieldsFragmentDoc;
  '\n  fragment JudgeRecordFields on JudgeRecord {\n    judgeId\n    label\n    kind\n    debates\n    positionConsistency {\n      ...JudgeFigureFields\n    }\n    firstShownMargin {\n      ...JudgeFigureFields\n    }\n    pairwiseAgreement {\n      ...JudgeFigureFields\n    }\n    fleissKappa {\n      ...JudgeFigureFields\n    }\n    selfPreference {\n      ...JudgeFigureFields\n    }\n    lengthSlope {\n      ...JudgeFigureFields\n    }\n    readersMinds {\n      agreement {\n        ...JudgeFigureFields\n      }\n      kappa {\n        ...JudgeFigureFields\n      }\n    }\n    readersVotes {\n      agreement {\n        ...JudgeFigureFields\n      }\n      kappa {\n        ...JudgeFigureFields\n      }\n    }\n  }\n': typeof types.JudgeRecordFieldsFragmentDoc;
  '\n  query Judges {\n    judges {\n      debates\n      bootstrapRounds\n      computedAt\n      judges {\n        ...JudgeRecordFields\n      }\n      all {\n        ...JudgeRecordFields\n      }\n    }\n  }\n': typeof types.JudgesDocument;
  '\n  fragment LeaderboardRowFields on LeaderboardRow {\n    id\n    label\n    kind\n    rating\n    low\n    high\n    debates\n    pairs\n    audience {\n      rating\n      low\n      high\n      debates\n    }\n  }\n': typeof types.LeaderboardRowFieldsFragmentDoc;
  '\n  query Leaderboard($subject: LeaderboardSubject!, $pairsOnly: Boolean!, $controlled: Boolean!) {\n    leaderboard(subject: $subject, pairsOnly: $pairsOnly, controlled: $controlled) {\n      subject\n      pairsOnly\n      controlled\n      debates\n      apartDebates\n      bootstrapRounds\n      computedAt\n      notRated {\n        sameSubject\n        notRecorded\n        personalityHints\n        dailyLimit\n      }\n      rows {\n        ...LeaderboardRowFields\n      }\n      apart {\n        ...LeaderboardRowFields\n      }\n    }\n  }\n': typeof types.LeaderboardDocument;
  '\n  query SignInProviders {\n    signInProviders\n  }\n': typeof types.SignInProvidersDocument;
};
const documents: Documents = {
  '\n  query PeopleListing {\n    peopleListing {\n      listed\n      name\n      ratedDebates\n    }\n  }\n':
    types.PeopleListingDocument,
  '\n  mutation SetPeopleListing($listed: Boolean!, $name: String) {\n    setPeopleListing(listed: $listed, name: $name) {\n      listed\n      name\n      ratedDebates\n    }\n  }\n':
    types.SetPeopleListingDocument,
  '\n  query Usage {\n    usage {\n      freeDebatesRemaining\n      lastDebateStarted\n      nextFreeDebateAt\n      totalDebates\n      memberSince\n      tokensIn\n      tokensOut\n    }\n  }\n':
    types.UsageDocument,
  '\n  fragment AuthSessionFields on AuthSession {\n    accessToken\n    expiresIn\n    user {\n      id\n      email\n      displayName\n      photoURL\n      isPro\n      createdAt\n      mustVerifyEmail\n    }\n  }\n':
    types.AuthSessionFieldsFragmentDoc,
  '\n  mutation RefreshSession {\n    refreshSession {\n      ...AuthSessionFields\n    }\n  }\n':
    types.RefreshSessionDocument,
  '\n  mutation SignIn($email: String!, $password: String!) {\n    signIn(email: $email, password: $password) {\n      ...AuthSessionFields\n    }\n  }\n':
    types.SignInDocument,
  '\n  mutation SignUp($email: String!, $password: String!) {\n    signUp(email: $email, password: $password) {\n      ...AuthSessionFields\n    }\n  }\n':
    types.SignUpDocument,
  '\n  mutation SignInWithProvider($provider: SignInProvider!) {\n    signInWithProvider(provider: $provider)\n  }\n':
    types.SignInWithProviderDocument,
  '\n  mutation CompleteProviderSignIn($code: String!, $state: String!) {\n    completeProviderSignIn(code: $code, state: $state) {\n      ...AuthSessionFields\n    }\n  }\n':
    types.CompleteProviderSignInDocument,
  '\n  mutation SignOut {\n    signOut\n  }\n': types.SignOutDocument,
  '\n  mutation SendVerificationEmail {\n    sendVerificationEmail\n  }\n':
    types.SendVerificationEmailDocument,
  '\n  query CommunityDebates(\n    $category: String\n    $sort: RankingSort\n    $period: RankingPeriod\n    $starredOnly: Boolean\n    $starredIds: [String!]\n    $utcOffsetMinutes: Int\n    $after: String\n  ) {\n    communityDebates(\n      category: $category\n      sort: $sort\n      period: $period\n      starredOnly: $starredOnly\n      starredIds: $starredIds\n      utcOffsetMinutes: $utcOffsetMinutes\n      after: $after\n      limit: 10\n    ) {\n      debates {\n        id\n        topic\n        categories\n        userDisplayName\n        sharedAt\n        upvotes\n        downvotes\n        interesting\n        views\n        myVote\n        starred\n        model1 {\n          ...DebateSpeakerFields\n        }\n        model2 {\n          ...DebateSpeakerFields\n        }\n        verdict {\n          ...VerdictSummaryFields\n        }\n        mindsChanged {\n          ...MindsChangedFields\n        }\n        example\n        stopped\n        rating {\n          text\n        }\n      }\n      next\n    }\n  }\n':
    types.CommunityDebatesDocument,
  '\n  query CommunityDebate($id: String!) {\n    communityDebate(id: $id) {\n      id\n      topic\n      categories\n      userDisplayName\n      sharedAt\n      upvotes\n      downvotes\n      interesting\n      views\n      model1 {\n        ...DebateSpeakerFields\n      }\n      model2 {\n        ...DebateSpeakerFields\n      }\n      rounds {\n        ...DebateRoundFields\n      }\n      verdict {\n        ...DebateVerdictFields\n      }\n      mindsChanged {\n        ...MindsChangedFields\n      }\n      example\n      stopped\n      rating {\n        text\n      }\n      myVote\n      standBefore\n      askBefore\n      pairedWith {\n        id\n        isRematch\n        model1 {\n          ...DebateSpeakerFields\n        }\n        model2 {\n          ...DebateSpeakerFields\n        }\n        verdict {\n          ...VerdictSummaryFields\n        }\n      }\n    }\n  }\n':
    types.CommunityDebateDocument,
  '\n  fragment MindsChangedFields on MindsChanged {\n    readers\n    shares {\n      before {\n        for\n        against\n        undecided\n      }\n      after {\n        for\n        against\n      }\n      gain {\n        for\n        against\n      }\n      gainedReaders {\n        for\n        against\n      }\n      winner\n    }\n  }\n':
    types.MindsChangedFieldsFragmentDoc,
  '\n  mutation Vote($debateId: String!, $kind: VoteKind) {\n    vote(debateId: $debateId, kind: $kind) {\n      debateId\n      upvotes\n      downvotes\n      interesting\n      myVote\n      mindsChanged {\n        ...MindsChangedFields\n      }\n    }\n  }\n':
    types.VoteDocument,
  '\n  mutation StandBefore($debateId: String!, $stance: StanceBefore) {\n    standBefore(debateId: $debateId, stance: $stance) {\n      debateId\n      standBefore\n      mindsChanged {\n        ...MindsChangedFields\n      }\n    }\n  }\n':
    types.StandBeforeDocument,
  '\n  mutation ToggleStar($debateId: String!, $starred: Boolean) {\n    toggleStar(debateId: $debateId, starred: $starred)\n  }\n':
    types.ToggleStarDocument,
  '\n  query Categories {\n    categories\n  }\n': types.CategoriesDocument,
  '\n  mutation MergeStars($debateIds: [String!]!) {\n    mergeStars(debateIds: $debateIds)\n  }\n':
    types.MergeStarsDocument,
  '\n  fragment WrittenByFields on WrittenBy {\n    kind\n    modelId\n    label\n    serverModel\n    tokensIn\n    tokensOut\n    firstTokenMs\n    totalMs\n    turns\n    failedTurns\n  }\n':
    types.WrittenByFieldsFragmentDoc,
  '\n  fragment TeamNotesFields on TeamNotes {\n    searched\n    evidence {\n      title\n      url\n    }\n    plan\n    review\n    fixes\n    revised\n    steps\n  }\n':
    types.TeamNotesFieldsFragmentDoc,
  '\n  fragment DebateSpeakerFields on DebateSpeaker {\n    name\n    stance\n    rhetoricStyle\n    writtenBy {\n      ...WrittenByFields\n    }\n  }\n':
    types.DebateSpeakerFieldsFragmentDoc,
  '\n  fragment DebateRoundFields on DebateRound {\n    speaker\n    round\n    text\n    summary\n    team {\n      ...TeamNotesFields\n    }\n    writtenBy {\n      ...WrittenByFields\n    }\n  }\n':
    types.DebateRoundFieldsFragmentDoc,
  '\n  fragment DebateVerdictFields on DebateVerdict {\n    winner\n    tie\n    tieReason\n    firstTotal\n    secondTotal\n    scores {\n      speaker\n      criterion\n      score\n      reason\n    }\n    readings {\n      order\n      winner\n      firstTotal\n      secondTotal\n    }\n    judgedBy {\n      ...WrittenByFields\n    }\n  }\n':
    types.DebateVerdictFieldsFragmentDoc,
  '\n  fragment VerdictSummaryFields on DebateVerdict {\n    winner\n    tie\n    firstTotal\n    secondTotal\n  }\n':
    types.VerdictSummaryFieldsFragmentDoc,
  '\n  query MyDebates($search: String, $category: String, $order: String, $after: String) {\n    myDebates(search: $search, category: $category, order: $order, after: $after, limit: 10) {\n      debates {\n        id\n        topic\n        categories\n        userDisplayName\n        timestamp\n        sharedAt\n        isPublic\n        upvotes\n        downvotes\n        model1 {\n          ...DebateSpeakerFields\n        }\n        model2 {\n          ...DebateSpeakerFields\n        }\n        verdict {\n          ...VerdictSummaryFields\n        }\n        rematchOf\n        moderatorEnabled\n        stopped\n      }\n      total\n      next\n    }\n  }\n':
    types.MyDebatesDocument,
  '\n  query MyDebate($id: String!) {\n    myDebate(id: $id) {\n      id\n      topic\n      categories\n      userDisplayName\n      sharedAt\n      upvotes\n      downvotes\n      model1 {\n        ...DebateSpeakerFields\n      }\n      model2 {\n        ...DebateSpeakerFields\n      }\n      rounds {\n        ...DebateRoundFields\n      }\n      verdict {\n        ...DebateVerdictFields\n      }\n    }\n  }\n':
    types.MyDebateDocument,
  '\n  query UnsavedDebate {\n    unsavedDebate {\n      runId\n      topic\n      model1 {\n        ...DebateSpeakerFields\n      }\n      model2 {\n        ...DebateSpeakerFields\n      }\n      rounds {\n        ...DebateRoundFields\n      }\n      verdict {\n        ...DebateVerdictFields\n      }\n      moderatorEnabled\n      rematchOf\n      stopped\n    }\n  }\n':
    types.UnsavedDebateDocument,
  '\n  mutation SaveDebate($runId: String!, $categories: [String!]!) {\n    saveDebate(runId: $runId, categories: $categories) {\n      id\n    }\n  }\n':
    types.SaveDebateDocument,
  '\n  mutation ShareDebate($id: String!) {\n    shareDebate(id: $id) {\n      id\n      isPublic\n    }\n  }\n':
    types.ShareDebateDocument,
  '\n  mutation UnshareDebate($id: String!) {\n    unshareDebate(id: $id) {\n      id\n      isPublic\n    }\n  }\n':
    types.UnshareDebateDocument,
  '\n  query Catalog {\n    catalog {\n      categories\n      rhetoricStyles\n      debateFormats\n      models {\n        id\n        label\n        kind\n        status\n        speakerMode\n      }\n      searcher\n      localModel {\n        status\n        name\n        progress\n      }\n      roundTitles\n      topics\n    }\n  }\n':
    types.CatalogDocument,
  '\n  mutation StartDebate($settings: DebateSettingsInput!) {\n    startDebate(settings: $settings)\n  }\n':
    types.StartDebateDocument,
  '\n  mutation StartRematch($debateId: String!) {\n    startRematch(debateId: $debateId)\n  }\n':
    types.StartRematchDocument,
  '\n  subscription DebateRun($id: String!) {\n    debateRun(id: $id) {\n      type\n      seq\n      at\n      topic\n      firstStance\n      secondStance\n      firstModel {\n        id\n        label\n        kind\n      }\n      secondModel {\n        id\n        label\n        kind\n      }\n      model {\n        id\n        label\n        kind\n      }\n      writtenBy {\n        ...WrittenByFields\n      }\n      turn\n      speaker\n      round\n      roundTitle\n      text\n      summary\n      failed\n      cutOff\n      stage\n      team {\n        ...TeamNotesFields\n      }\n      judge {\n        id\n        label\n        kind\n      }\n      verdict {\n        ...DebateVerdictFields\n      }\n      message\n      freeDebateUsed\n      minWords\n      maxWords\n      deadline\n      stopReason\n    }\n  }\n':
    types.DebateRunDocument,
  '\n  mutation StopDebate($runId: String!) {\n    stopDebate(runId: $runId) {\n      stopped\n      freeDebateUsed\n    }\n  }\n':
    types.StopDebateDocument,
  '\n  mutation SubmitTurn($runId: String!, $turn: Int!, $text: String!) {\n    submitTurn(runId: $runId, turn: $turn, text: $text)\n  }\n':
    types.SubmitTurnDocument,
  '\n  fragment JudgeFigureFields on JudgeFigure {\n    value\n    low\n    high\n    count\n  }\n':
    types.JudgeFigureFieldsFragmentDoc,
  '\n  fragment JudgeRecordFields on JudgeRecord {\n    judgeId\n    label\n    kind\n    debates\n    positionConsistency {\n      ...JudgeFigureFields\n    }\n    firstShownMargin {\n      ...JudgeFigureFields\n    }\n    pairwiseAgreement {\n      ...JudgeFigureFields\n    }\n    fleissKappa {\n      ...JudgeFigureFields\n    }\n    selfPreference {\n      ...JudgeFigureFields\n    }\n    lengthSlope {\n      ...JudgeFigureFields\n    }\n    readersMinds {\n      agreement {\n        ...JudgeFigureFields\n      }\n      kappa {\n        ...JudgeFigureFields\n      }\n    }\n    readersVotes {\n      agreement {\n        ...JudgeFigureFields\n      }\n      kappa {\n        ...JudgeFigureFields\n      }\n    }\n  }\n':
    types.JudgeRecordFieldsFragmentDoc,
  '\n  query Judges {\n    judges {\n      debates\n      bootstrapRounds\n      computedAt\n      judges {\n        ...JudgeRecordFields\n      }\n      all {\n        ...JudgeRecordFields\n      }\n    }\n  }\n':
    types.JudgesDocument,
  '\n  fragment LeaderboardRowFields on LeaderboardRow {\n    id\n    label\n    kind\n    rating\n    low\n    high\n    debates\n    pairs\n    audience {\n      rating\n      low\n      high\n      debates\n    }\n  }\n':
    types.LeaderboardRowFieldsFragmentDoc,
  '\n  query Leaderboard($subject: LeaderboardSubject!, $pairsOnly: Boolean!, $controlled: Boolean!) {\n    leaderboard(subject: $subject, pairsOnly: $pairsOnly, controlled: $controlled) {\n      subject\n      pairsOnly\n      controlled\n      debates\n      apartDebates\n      bootstrapRounds\n      computedAt\n      notRated {\n        sameSubject\n        notRecorded\n        personalityHints\n        dailyLimit\n      }\n      rows {\n        ...LeaderboardRowFields\n      }\n      apart {\n        ...LeaderboardRowFields\n      }\n    }\n  }\n':
    types.LeaderboardDocument,
  '\n  query SignInProviders {\n    signInProviders\n  }\n': types.SignInProvidersDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query PeopleListing {\n    peopleListing {\n      listed\n      name\n      ratedDebates\n    }\n  }\n',
): typeof import('./graphql').PeopleListingDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation SetPeopleListing($listed: Boolean!, $name: String) {\n    setPeopleListing(listed: $listed, name: $name) {\n      listed\n      name\n      ratedDebates\n    }\n  }\n',
): typeof import('./graphql').SetPeopleListingDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Usage {\n    usage {\n      freeDebatesRemaining\n      lastDebateStarted\n      nextFreeDebateAt\n      totalDebates\n      memberSince\n      tokensIn\n      tokensOut\n    }\n  }\n',
): typeof import('./graphql').UsageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  fragment AuthSessionFields on AuthSession {\n    accessToken\n    expiresIn\n    user {\n      id\n      email\n      displayName\n      photoURL\n      isPro\n      createdAt\n      mustVerifyEmail\n    }\n  }\n',
): typeof import('./graphql').AuthSessionFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation RefreshSession {\n    refreshSession {\n      ...AuthSessionFields\n    }\n  }\n',
): typeof import('./graphql').RefreshSessionDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation SignIn($email: String!, $password: String!) {\n    signIn(email: $email, password: $password) {\n      ...AuthSessionFields\n    }\n  }\n',
): typeof import('./graphql').SignInDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation SignUp($email: String!, $password: String!) {\n    signUp(email: $email, password: $password) {\n      ...AuthSessionFields\n    }\n  }\n',
): typeof import('./graphql').SignUpDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation SignInWithProvider($provider: SignInProvider!) {\n    signInWithProvider(provider: $provider)\n  }\n',
): typeof import('./graphql').SignInWithProviderDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation CompleteProviderSignIn($code: String!, $state: String!) {\n    completeProviderSignIn(code: $code, state: $state) {\n      ...AuthSessionFields\n    }\n  }\n',
): typeof import('./graphql').CompleteProviderSignInDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation SignOut {\n    signOut\n  }\n',
): typeof import('./graphql').SignOutDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation SendVerificationEmail {\n    sendVerificationEmail\n  }\n',
): typeof import('./graphql').SendVerificationEmailDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query CommunityDebates(\n    $category: String\n    $sort: RankingSort\n    $period: RankingPeriod\n    $starredOnly: Boolean\n    $starredIds: [String!]\n    $utcOffsetMinutes: Int\n    $after: String\n  ) {\n    communityDebates(\n      category: $category\n      sort: $sort\n      period: $period\n      starredOnly: $starredOnly\n      starredIds: $starredIds\n      utcOffsetMinutes: $utcOffsetMinutes\n      after: $after\n      limit: 10\n    ) {\n      debates {\n        id\n        topic\n        categories\n        userDisplayName\n        sharedAt\n        upvotes\n        downvotes\n        interesting\n        views\n        myVote\n        starred\n        model1 {\n          ...DebateSpeakerFields\n        }\n        model2 {\n          ...DebateSpeakerFields\n        }\n        verdict {\n          ...VerdictSummaryFields\n        }\n        mindsChanged {\n          ...MindsChangedFields\n        }\n        example\n        stopped\n        rating {\n          text\n        }\n      }\n      next\n    }\n  }\n',
): typeof import('./graphql').CommunityDebatesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query CommunityDebate($id: String!) {\n    communityDebate(id: $id) {\n      id\n      topic\n      categories\n      userDisplayName\n      sharedAt\n      upvotes\n      downvotes\n      interesting\n      views\n      model1 {\n        ...DebateSpeakerFields\n      }\n      model2 {\n        ...DebateSpeakerFields\n      }\n      rounds {\n        ...DebateRoundFields\n      }\n      verdict {\n        ...DebateVerdictFields\n      }\n      mindsChanged {\n        ...MindsChangedFields\n      }\n      example\n      stopped\n      rating {\n        text\n      }\n      myVote\n      standBefore\n      askBefore\n      pairedWith {\n        id\n        isRematch\n        model1 {\n          ...DebateSpeakerFields\n        }\n        model2 {\n          ...DebateSpeakerFields\n        }\n        verdict {\n          ...VerdictSummaryFields\n        }\n      }\n    }\n  }\n',
): typeof import('./graphql').CommunityDebateDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  fragment MindsChangedFields on MindsChanged {\n    readers\n    shares {\n      before {\n        for\n        against\n        undecided\n      }\n      after {\n        for\n        against\n      }\n      gain {\n        for\n        against\n      }\n      gainedReaders {\n        for\n        against\n      }\n      winner\n    }\n  }\n',
): typeof import('./graphql').MindsChangedFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation Vote($debateId: String!, $kind: VoteKind) {\n    vote(debateId: $debateId, kind: $kind) {\n      debateId\n      upvotes\n      downvotes\n      interesting\n      myVote\n      mindsChanged {\n        ...MindsChangedFields\n      }\n    }\n  }\n',
): typeof import('./graphql').VoteDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation StandBefore($debateId: String!, $stance: StanceBefore) {\n    standBefore(debateId: $debateId, stance: $stance) {\n      debateId\n      standBefore\n      mindsChanged {\n        ...MindsChangedFields\n      }\n    }\n  }\n',
): typeof import('./graphql').StandBeforeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation ToggleStar($debateId: String!, $starred: Boolean) {\n    toggleStar(debateId: $debateId, starred: $starred)\n  }\n',
): typeof import('./graphql').ToggleStarDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Categories {\n    categories\n  }\n',
): typeof import('./graphql').CategoriesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation MergeStars($debateIds: [String!]!) {\n    mergeStars(debateIds: $debateIds)\n  }\n',
): typeof import('./graphql').MergeStarsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  fragment WrittenByFields on WrittenBy {\n    kind\n    modelId\n    label\n    serverModel\n    tokensIn\n    tokensOut\n    firstTokenMs\n    totalMs\n    turns\n    failedTurns\n  }\n',
): typeof import('./graphql').WrittenByFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  fragment TeamNotesFields on TeamNotes {\n    searched\n    evidence {\n      title\n      url\n    }\n    plan\n    review\n    fixes\n    revised\n    steps\n  }\n',
): typeof import('./graphql').TeamNotesFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  fragment DebateSpeakerFields on DebateSpeaker {\n    name\n    stance\n    rhetoricStyle\n    writtenBy {\n      ...WrittenByFields\n    }\n  }\n',
): typeof import('./graphql').DebateSpeakerFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  fragment DebateRoundFields on DebateRound {\n    speaker\n    round\n    text\n    summary\n    team {\n      ...TeamNotesFields\n    }\n    writtenBy {\n      ...WrittenByFields\n    }\n  }\n',
): typeof import('./graphql').DebateRoundFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  fragment DebateVerdictFields on DebateVerdict {\n    winner\n    tie\n    tieReason\n    firstTotal\n    secondTotal\n    scores {\n      speaker\n      criterion\n      score\n      reason\n    }\n    readings {\n      order\n      winner\n      firstTotal\n      secondTotal\n    }\n    judgedBy {\n      ...WrittenByFields\n    }\n  }\n',
): typeof import('./graphql').DebateVerdictFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  fragment VerdictSummaryFields on DebateVerdict {\n    winner\n    tie\n    firstTotal\n    secondTotal\n  }\n',
): typeof import('./graphql').VerdictSummaryFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query MyDebates($search: String, $category: String, $order: String, $after: String) {\n    myDebates(search: $search, category: $category, order: $order, after: $after, limit: 10) {\n      debates {\n        id\n        topic\n        categories\n        userDisplayName\n        timestamp\n        sharedAt\n        isPublic\n        upvotes\n        downvotes\n        model1 {\n          ...DebateSpeakerFields\n        }\n        model2 {\n          ...DebateSpeakerFields\n        }\n        verdict {\n          ...VerdictSummaryFields\n        }\n        rematchOf\n        moderatorEnabled\n        stopped\n      }\n      total\n      next\n    }\n  }\n',
): typeof import('./graphql').MyDebatesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query MyDebate($id: String!) {\n    myDebate(id: $id) {\n      id\n      topic\n      categories\n      userDisplayName\n      sharedAt\n      upvotes\n      downvotes\n      model1 {\n        ...DebateSpeakerFields\n      }\n      model2 {\n        ...DebateSpeakerFields\n      }\n      rounds {\n        ...DebateRoundFields\n      }\n      verdict {\n        ...DebateVerdictFields\n      }\n    }\n  }\n',
): typeof import('./graphql').MyDebateDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query UnsavedDebate {\n    unsavedDebate {\n      runId\n      topic\n      model1 {\n        ...DebateSpeakerFields\n      }\n      model2 {\n        ...DebateSpeakerFields\n      }\n      rounds {\n        ...DebateRoundFields\n      }\n      verdict {\n        ...DebateVerdictFields\n      }\n      moderatorEnabled\n      rematchOf\n      stopped\n    }\n  }\n',
): typeof import('./graphql').UnsavedDebateDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation SaveDebate($runId: String!, $categories: [String!]!) {\n    saveDebate(runId: $runId, categories: $categories) {\n      id\n    }\n  }\n',
): typeof import('./graphql').SaveDebateDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation ShareDebate($id: String!) {\n    shareDebate(id: $id) {\n      id\n      isPublic\n    }\n  }\n',
): typeof import('./graphql').ShareDebateDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation UnshareDebate($id: String!) {\n    unshareDebate(id: $id) {\n      id\n      isPublic\n    }\n  }\n',
): typeof import('./graphql').UnshareDebateDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Catalog {\n    catalog {\n      categories\n      rhetoricStyles\n      debateFormats\n      models {\n        id\n        label\n        kind\n        status\n        speakerMode\n      }\n      searcher\n      localModel {\n        status\n        name\n        progress\n      }\n      roundTitles\n      topics\n    }\n  }\n',
): typeof import('./graphql').CatalogDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation StartDebate($settings: DebateSettingsInput!) {\n    startDebate(settings: $settings)\n  }\n',
): typeof import('./graphql').StartDebateDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation StartRematch($debateId: String!) {\n    startRematch(debateId: $debateId)\n  }\n',
): typeof import('./graphql').StartRematchDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  subscription DebateRun($id: String!) {\n    debateRun(id: $id) {\n      type\n      seq\n      at\n      topic\n      firstStance\n      secondStance\n      firstModel {\n        id\n        label\n        kind\n      }\n      secondModel {\n        id\n        label\n        kind\n      }\n      model {\n        id\n        label\n        kind\n      }\n      writtenBy {\n        ...WrittenByFields\n      }\n      turn\n      speaker\n      round\n      roundTitle\n      text\n      summary\n      failed\n      cutOff\n      stage\n      team {\n        ...TeamNotesFields\n      }\n      judge {\n        id\n        label\n        kind\n      }\n      verdict {\n        ...DebateVerdictFields\n      }\n      message\n      freeDebateUsed\n      minWords\n      maxWords\n      deadline\n      stopReason\n    }\n  }\n',
): typeof import('./graphql').DebateRunDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation StopDebate($runId: String!) {\n    stopDebate(runId: $runId) {\n      stopped\n      freeDebateUsed\n    }\n  }\n',
): typeof import('./graphql').StopDebateDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation SubmitTurn($runId: String!, $turn: Int!, $text: String!) {\n    submitTurn(runId: $runId, turn: $turn, text: $text)\n  }\n',
): typeof import('./graphql').SubmitTurnDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  fragment JudgeFigureFields on JudgeFigure {\n    value\n    low\n    high\n    count\n  }\n',
): typeof import('./graphql').JudgeFigureFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  fragment JudgeRecordFields on JudgeRecord {\n    judgeId\n    label\n    kind\n    debates\n    positionConsistency {\n      ...JudgeFigureFields\n    }\n    firstShownMargin {\n      ...JudgeFigureFields\n    }\n    pairwiseAgreement {\n      ...JudgeFigureFields\n    }\n    fleissKappa {\n      ...JudgeFigureFields\n    }\n    selfPreference {\n      ...JudgeFigureFields\n    }\n    lengthSlope {\n      ...JudgeFigureFields\n    }\n    readersMinds {\n      agreement {\n        ...JudgeFigureFields\n      }\n      kappa {\n        ...JudgeFigureFields\n      }\n    }\n    readersVotes {\n      agreement {\n        ...JudgeFigureFields\n      }\n      kappa {\n        ...JudgeFigureFields\n      }\n    }\n  }\n',
): typeof import('./graphql').JudgeRecordFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Judges {\n    judges {\n      debates\n      bootstrapRounds\n      computedAt\n      judges {\n        ...JudgeRecordFields\n      }\n      all {\n        ...JudgeRecordFields\n      }\n    }\n  }\n',
): typeof import('./graphql').JudgesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  fragment LeaderboardRowFields on LeaderboardRow {\n    id\n    label\n    kind\n    rating\n    low\n    high\n    debates\n    pairs\n    audience {\n      rating\n      low\n      high\n      debates\n    }\n  }\n',
): typeof import('./graphql').LeaderboardRowFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Leaderboard($subject: LeaderboardSubject!, $pairsOnly: Boolean!, $controlled: Boolean!) {\n    leaderboard(subject: $subject, pairsOnly: $pairsOnly, controlled: $controlled) {\n      subject\n      pairsOnly\n      controlled\n      debates\n      apartDebates\n      bootstrapRounds\n      computedAt\n      notRated {\n        sameSubject\n        notRecorded\n        personalityHints\n        dailyLimit\n      }\n      rows {\n        ...LeaderboardRowFields\n      }\n      apart {\n        ...LeaderboardRowFields\n      }\n    }\n  }\n',
): typeof import('./graphql').LeaderboardDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query SignInProviders {\n    signInProviders\n  }\n',
): typeof import('./graphql').SignInProvidersDocument;

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
