import { Col, Flex, Row } from 'antd';
import { InvitationsCard } from '../components/InvitationsCard';
import { MyCompaniesCard } from '../components/MyCompaniesCard';
import { ProfileCard } from '../components/ProfileCard';
import '../user.css';

/** Personal center: the profile (avatar, name, email, password), companies and invitations. */
export default function UserInfoPage() {
  return (
    <div className="user-page" data-testid="userinfo-page">
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={9} xl={8}>
          <ProfileCard />
        </Col>
        <Col xs={24} lg={15} xl={16}>
          <Flex vertical gap={16}>
            <InvitationsCard />
            <MyCompaniesCard />
          </Flex>
        </Col>
      </Row>
    </div>
  );
}
