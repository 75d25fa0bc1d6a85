import { Anchor, Container, List, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

const SUPPORT_EMAIL = 'support@coverdesk.app';

const SECTIONS: { title: string; body: ReactNode }[] = [
  {
    title: 'Who these terms are for',
    body: (
      <>
        <Text>
          These terms apply when you use the Coverdesk service we host. By creating an account or using the
          service you agree to them. If you use Coverdesk for an agency, you agree on its behalf and confirm
          you may do so.
        </Text>
        <Text>
          If you run Coverdesk on your own servers, the open-source licence below governs the software, and
          these terms do not apply to your installation.
        </Text>
      </>
    ),
  },
  {
    title: 'Your account',
    body: (
      <List spacing="xs">
        <List.Item>Give accurate details when you register, and keep them up to date.</List.Item>
        <List.Item>
          Keep your password to yourself. You are responsible for what happens under your account.
        </List.Item>
        <List.Item>Tell us at once if you think someone else has used your account.</List.Item>
        <List.Item>
          The demo agency is shared and reset every day. Do not put real customer data into it.
        </List.Item>
      </List>
    ),
  },
  {
    title: 'Trial and billing',
    body: (
      <List spacing="xs">
        <List.Item>
          A new agency gets a 14-day free trial. No card is needed, and nothing is charged when it ends unless
          you choose a plan.
        </List.Item>
        <List.Item>
          Plans are billed in advance, monthly or yearly, at the price shown when you subscribe. Prices are in
          US dollars and may have taxes added where the law requires.
        </List.Item>
        <List.Item>
          You can cancel at any time from Billing. Your plan stays active until the end of the period you have
          paid for; we do not refund partial periods unless the law requires it.
        </List.Item>
        <List.Item>
          If we change a price, we tell you at least 30 days before it applies to your next billing period.
        </List.Item>
      </List>
    ),
  },
  {
    title: 'Acceptable use',
    body: (
      <>
        <Text>Use Coverdesk for running your insurance business lawfully. In particular, do not:</Text>
        <List spacing="xs">
          <List.Item>
            store data you have no right to hold, or use the service to send unsolicited messages;
          </List.Item>
          <List.Item>
            try to reach another agency’s data, or test our security without our written permission;
          </List.Item>
          <List.Item>
            overload the service or get round its limits, for example with automated sign-ups.
          </List.Item>
        </List>
        <Text>We may suspend an account that breaks these rules, and will tell you why.</Text>
      </>
    ),
  },
  {
    title: 'Your data and privacy',
    body: (
      <List spacing="xs">
        <List.Item>
          What you put into Coverdesk remains yours. We use it only to run the service for you, and we do not
          sell it.
        </List.Item>
        <List.Item>
          You are responsible for having a lawful basis to hold your customers’ personal data; for that data
          we act on your instructions.
        </List.Item>
        <List.Item>
          Each agency’s records are kept separate from every other agency’s. Our staff look at them only when
          you ask for help or the law requires it.
        </List.Item>
        <List.Item>
          If you close your account, ask us for a copy of your data first; we then delete it from the live
          service.
        </List.Item>
      </List>
    ),
  },
  {
    title: 'Availability',
    body: (
      <Text>
        We work to keep Coverdesk available at all hours and to announce planned maintenance in advance. We
        cannot promise it will never be interrupted, and the service is provided without a guaranteed uptime
        unless we agree one with you in writing.
      </Text>
    ),
  },
  {
    title: 'Open-source licence',
    body: (
      <Text>
        The Coverdesk software is free software under the GNU Affero General Public License, version 3 or
        later. You may use, study, change and share it under that licence. If you offer a changed version to
        others over a network, the licence asks you to make your source code available to them.
      </Text>
    ),
  },
  {
    title: 'Liability',
    body: (
      <Text>
        Coverdesk helps you keep records; it does not give insurance, legal or financial advice, and you
        remain responsible for your dealings with customers and insurers. As far as the law allows, we are not
        liable for indirect losses such as lost profit, and our total liability is limited to what you paid us
        in the 12 months before the claim. Nothing here limits liability that cannot be limited by law.
      </Text>
    ),
  },
  {
    title: 'Changes to these terms',
    body: (
      <Text>
        We may update these terms as the service changes. For changes that matter, we tell account owners by
        email at least 30 days before they take effect. If you keep using Coverdesk after that, the new terms
        apply; if you do not agree, you may cancel before then.
      </Text>
    ),
  },
  {
    title: 'Contact',
    body: (
      <Text>
        Questions about these terms? Write to{' '}
        <Anchor href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</Anchor> or use the{' '}
        <Anchor component={Link} to="/contact">
          contact form
        </Anchor>
        .
      </Text>
    ),
  },
];

/** `/terms`: the terms of service in plain language. */
export function Component() {
  return (
    <Container size="lg" py={{ base: 40, md: 72 }}>
      <Stack gap="xl" maw={760}>
        <Stack gap="xs">
          <Title order={1} fz={{ base: 32, md: 44 }}>
            Terms of service
          </Title>
          <Text c="gray.7">Last updated: 22 November 2026</Text>
          <Text fz="lg">
            The rules for using Coverdesk, written to be read. If something here is unclear, ask us before you
            rely on it.
          </Text>
        </Stack>
        {SECTIONS.map((section, index) => (
          <Stack key={section.title} gap="sm" component="section">
            <Title order={2} fz="h3">
              {index + 1}. {section.title}
            </Title>
            {section.body}
          </Stack>
        ))}
      </Stack>
    </Container>
  );
}
